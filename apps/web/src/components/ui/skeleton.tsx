import { clsx } from "clsx";

/** A grey bar standing in for text while loading. */
export function Skeleton({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={clsx("block animate-pulse rounded-md bg-stone-200 dark:bg-white/10", className)}
    />
  );
}
