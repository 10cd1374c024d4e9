import type { ReactNode } from "react";

/** A screen's title (its one h1) and the sentence under it. */
export function PageHeader({ title, description }: { title: string; description: ReactNode }) {
  return (
    <div>
      <h1 className="font-display text-2xl font-bold text-stone-900 sm:text-3xl dark:text-white">
        {title}
      </h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{description}</p>
    </div>
  );
}
