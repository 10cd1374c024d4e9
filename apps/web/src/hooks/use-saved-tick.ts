import { useCallback, useEffect, useRef, useState } from "react";

/** How long the Saved tick shows after a save (admin-side spec, section 9). */
export const SAVED_TICK_MS = 3000;

/** A flag that is true for 3 s after `show()`; a new save restarts the 3 s. */
export function useSavedTick(): [boolean, () => void] {
  const [saved, setSaved] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback(() => {
    clearTimeout(timer.current);
    setSaved(true);
    timer.current = setTimeout(() => setSaved(false), SAVED_TICK_MS);
  }, []);
  return [saved, show];
}
