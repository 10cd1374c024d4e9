import type { ReactNode } from "react";

/** A table card's title row: the title, and its search beside it (under it on phones). */
export function TableToolbar({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-3 border-b border-stone-200 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-white/10">
      <h2 className="font-display text-lg font-semibold text-stone-900 dark:text-white">{title}</h2>
      {children}
    </div>
  );
}
