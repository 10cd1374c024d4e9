import type { ReactNode } from "react";

/** A centred full-page panel for the 404, error and authentication error screens. */
export function StatusLayout({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <main
      id="main"
      data-testid={testId}
      className="relative flex min-h-dvh items-center justify-center overflow-hidden bg-gradient-to-b from-brand-50 via-white to-orange-50 px-6 py-16 text-center dark:from-stone-950 dark:via-stone-950 dark:to-stone-900"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-32 left-1/2 size-[28rem] -translate-x-1/2 rounded-full bg-brand-400/20 blur-3xl dark:bg-brand-600/20"
      />
      <div className="relative w-full max-w-md">{children}</div>
    </main>
  );
}
