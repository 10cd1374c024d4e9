import { clsx } from "clsx";
import { LayoutDashboard, LogIn } from "lucide-react";
import type { ReactNode } from "react";
import { Link, NavLink } from "react-router";
import { buttonClasses } from "@/components/ui/button";
import { Logo } from "@/components/ui/logo";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { useAuth } from "@/lib/auth/auth-provider";

const LINKS = [
  { to: "/characters", label: "Characters" },
  { to: "/premium", label: "Premium" },
  { to: "/about", label: "About" },
];

/**
 * The alternate header layout (user-side spec, section 2): links to /characters, /premium and
 * /about, and a Guest Login button that opens the login modal (`onGuestLogin`); signed in, a
 * Dashboard link instead. Its footer carries the roleplay notice dated 2023.
 */
export function SiteLayout({
  children,
  onGuestLogin,
}: {
  children: ReactNode;
  onGuestLogin: () => void;
}) {
  const { isAuthenticated } = useAuth();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-40 border-b border-stone-200/70 bg-white/85 backdrop-blur-lg dark:border-white/10 dark:bg-stone-950/80">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-3 sm:px-6">
          <Link to="/" aria-label="Twinline home" className="-m-1 shrink-0 rounded-lg p-1">
            <Logo />
          </Link>
          <nav aria-label="Site" className="flex min-w-0 items-center gap-0.5 sm:gap-1">
            {LINKS.map((link) => (
              <NavLink
                key={link.to}
                to={link.to}
                className={({ isActive }) =>
                  clsx(
                    "rounded-full px-2 py-1.5 text-sm font-medium transition sm:px-3",
                    isActive
                      ? "bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-200"
                      : "text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-white/10",
                  )
                }
              >
                {link.label}
              </NavLink>
            ))}
          </nav>
          <div className="flex shrink-0 items-center gap-1">
            <ThemeToggle />
            {isAuthenticated ? (
              <Link to="/dashboard" className={buttonClasses("primary", "sm")}>
                <LayoutDashboard aria-hidden="true" className="hidden size-4 sm:block" />
                Dashboard
              </Link>
            ) : (
              <button
                type="button"
                onClick={onGuestLogin}
                className={buttonClasses("primary", "sm")}
              >
                <LogIn aria-hidden="true" className="hidden size-4 sm:block" />
                Guest Login
              </button>
            )}
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        {children}
      </main>
      <footer className="border-t border-stone-200 px-4 py-6 text-center text-xs text-stone-500 dark:border-white/10 dark:text-stone-400">
        © 2023 Twinline. Every character is fictional and every conversation is AI roleplay for
        entertainment; nothing said is advice or the words of a real person.
      </footer>
    </div>
  );
}
