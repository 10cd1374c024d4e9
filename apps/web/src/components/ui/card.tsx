import { clsx } from "clsx";
import type { HTMLAttributes, ReactNode } from "react";

/** A card surface (the admin screens and the dashboard). */
export function Card({
  children,
  className,
  ...rest
}: { children: ReactNode; className?: string } & HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={clsx(
        "rounded-2xl border border-stone-200 bg-white shadow-xs dark:border-white/10 dark:bg-stone-900",
        className,
      )}
      {...rest}
    >
      {children}
    </div>
  );
}
