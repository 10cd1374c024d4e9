import { useCallback, useState } from "react";
import { readStorage, writeStorage } from "@/lib/storage";
import { FAVORITES_KEY } from "../data";

function readFavorites(): number[] {
  try {
    const parsed: unknown = JSON.parse(readStorage(FAVORITES_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((v): v is number => typeof v === "number") : [];
  } catch {
    return [];
  }
}

/** Whether a character is a favorite of this browser (localStorage), and the toggle. */
export function useFavorite(id: number) {
  const [favorite, setFavorite] = useState(() => readFavorites().includes(id));
  const toggle = useCallback(() => {
    const others = readFavorites().filter((v) => v !== id);
    const next = !readFavorites().includes(id);
    writeStorage(FAVORITES_KEY, JSON.stringify(next ? [...others, id] : others));
    setFavorite(next);
    return next;
  }, [id]);
  return { favorite, toggle };
}
