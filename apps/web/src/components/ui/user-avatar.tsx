import { clsx } from "clsx";
import { useState } from "react";
import { mediaUrl } from "@/lib/api-client";

/** Up to two initials for the generated avatar. */
export function initialsOf(name: string, email = ""): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    words.length >= 2
      ? `${words[0]?.[0] ?? ""}${words.at(-1)?.[0] ?? ""}`
      : (words[0] ?? email).slice(0, 2);
  return (letters || "?").toUpperCase();
}

/** A profile image, or generated initials when there is none or it fails to load. */
export function UserAvatar({
  name,
  email,
  image,
  size = "md",
}: {
  name: string;
  email?: string;
  image?: string | null;
  size?: "md" | "lg";
}) {
  const src = mediaUrl(image);
  const [failed, setFailed] = useState<string | null>(null);
  const box = size === "lg" ? "size-20 text-2xl" : "size-9 text-sm";
  if (src && failed !== src) {
    return (
      <img
        src={src}
        alt=""
        className={clsx(box, "shrink-0 rounded-full object-cover")}
        onError={() => setFailed(src)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={clsx(
        box,
        "inline-flex shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-orange-400 font-semibold text-white",
      )}
    >
      {initialsOf(name, email)}
    </span>
  );
}
