import type { ReactNode } from "react";
import { Link } from "react-router";
import { Logo } from "@/components/ui/logo";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { COPYRIGHT_YEAR } from "@/lib/constants";
import { useSettings } from "@/lib/settings";

/** The frame of /auth and /reset-password: logo link home, theme toggle, a card, the footer. */
export function AuthShell({ children, testId }: { children: ReactNode; testId?: string }) {
  const { settings } = useSettings();
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-brand-50 via-white to-orange-50 dark:from-stone-950 dark:via-stone-950 dark:to-stone-900">
      <header className="mx-auto flex h-16 w-full max-w-6xl items-center justify-between px-3 sm:px-6">
        <Link to="/" aria-label="Twinline home" className="-m-1 rounded-lg p-1">
          <Logo />
        </Link>
        <ThemeToggle />
      </header>
      <main
        id="main"
        data-testid={testId}
        className="flex flex-1 items-start justify-center px-3 py-6 sm:items-center sm:py-10"
      >
        <div className="w-full max-w-md rounded-3xl border border-stone-200 bg-white/90 p-5 shadow-xl shadow-brand-900/5 backdrop-blur sm:p-8 dark:border-white/10 dark:bg-stone-900/90">
          {children}
        </div>
      </main>
      <footer className="px-4 py-6 text-center text-sm text-stone-500 dark:text-stone-400">
        <p data-testid="auth-footer">
          © {COPYRIGHT_YEAR} {settings.aiProfile.name} · Official AI twin on Twinline
        </p>
      </footer>
    </div>
  );
}
