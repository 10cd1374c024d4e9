import { LayoutDashboard, LogOut } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { Logo } from "@/components/ui/logo";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { useAuth } from "@/lib/auth/auth-provider";
import { AppLink } from "@/lib/navigation";
import type { OpenAuth } from "../content";

/**
 * Fixed header: logo, theme toggle; logged out Login and Sign Up (opening the login modal),
 * logged in a Dashboard link and Logout.
 */
export function LandingHeader({ onOpenAuth }: { onOpenAuth: OpenAuth }) {
  const { isAuthenticated, logout } = useAuth();
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-stone-200/70 bg-white/80 backdrop-blur-lg dark:border-white/10 dark:bg-stone-950/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-3 sm:px-6">
        <AppLink to="/" aria-label="Twinline home" className="-m-1 rounded-lg p-1">
          <Logo />
        </AppLink>
        <nav aria-label="Account" className="flex items-center gap-1 sm:gap-2">
          <ThemeToggle />
          {isAuthenticated ? (
            <>
              <AppLink to="/dashboard" className={buttonClasses("primary", "sm", "px-3.5 sm:px-4")}>
                <LayoutDashboard aria-hidden="true" className="hidden size-4 sm:block" />
                Dashboard
              </AppLink>
              <button
                type="button"
                onClick={logout}
                title="Logout"
                className={buttonClasses("ghost", "sm", "px-2.5 sm:px-3")}
              >
                <LogOut aria-hidden="true" className="size-4" />
                <span className="sr-only sm:not-sr-only">Logout</span>
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                onClick={() => onOpenAuth("login")}
                className={buttonClasses("ghost", "sm", "px-3")}
              >
                Login
              </button>
              <button
                type="button"
                onClick={() => onOpenAuth("signup")}
                className={buttonClasses("primary", "sm", "px-3.5 sm:px-4")}
              >
                Sign Up
              </button>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
