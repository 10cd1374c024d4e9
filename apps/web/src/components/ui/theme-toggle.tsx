import { clsx } from "clsx";
import { Moon, Sun } from "lucide-react";
import { useTheme } from "@/lib/theme";

/** Switches between the dark and light theme; the choice is kept across reloads. */
export function ThemeToggle({ className }: { className?: string }) {
  const { resolvedTheme, toggleTheme } = useTheme();
  const isDark = resolvedTheme === "dark";
  const label = isDark ? "Switch to light theme" : "Switch to dark theme";
  return (
    <button
      type="button"
      onClick={toggleTheme}
      aria-label={label}
      title={label}
      data-testid="theme-toggle"
      className={clsx(
        "inline-flex size-10 shrink-0 items-center justify-center rounded-full text-stone-700 transition hover:bg-stone-100 hover:text-stone-900 dark:text-stone-200 dark:hover:bg-white/10 dark:hover:text-white",
        className,
      )}
    >
      {isDark ? (
        <Sun aria-hidden="true" className="size-5" />
      ) : (
        <Moon aria-hidden="true" className="size-5" />
      )}
    </button>
  );
}
