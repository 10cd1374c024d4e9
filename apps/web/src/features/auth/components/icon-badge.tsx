import type { ReactNode } from "react";

const TONES = {
  brand: "bg-brand-100 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300",
  ok: "bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300",
  bad: "bg-amber-100 text-amber-700 dark:bg-amber-500/15 dark:text-amber-300",
} as const;

/** The icon above an auth screen's heading, tinted by how things went. */
export function IconBadge({ children, tone }: { children: ReactNode; tone: keyof typeof TONES }) {
  return (
    <div className={`mx-auto flex size-14 items-center justify-center rounded-2xl ${TONES[tone]}`}>
      {children}
    </div>
  );
}
