import { Link } from "react-router";
import { buttonClasses } from "@/components/ui/button";
import { Logo } from "@/components/ui/logo";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { AUTH_PATH } from "../content";

/** Fixed header: logo, theme toggle, Login and Sign Up. */
export function LandingHeader() {
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-stone-200/70 bg-white/80 backdrop-blur-lg dark:border-white/10 dark:bg-stone-950/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-3 sm:px-6">
        <Link to="/" aria-label="Twinline home" className="-m-1 rounded-lg p-1">
          <Logo />
        </Link>
        <nav aria-label="Account" className="flex items-center gap-1 sm:gap-2">
          <ThemeToggle />
          <Link to={AUTH_PATH} className={buttonClasses("ghost", "sm", "px-3")}>
            Login
          </Link>
          <Link to={AUTH_PATH} className={buttonClasses("primary", "sm", "px-3.5 sm:px-4")}>
            Sign Up
          </Link>
        </nav>
      </div>
    </header>
  );
}
