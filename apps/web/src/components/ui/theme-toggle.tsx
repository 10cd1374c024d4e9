import { clsx } from "clsx";
import { Monitor, Moon, Sun } from "lucide-react";
import { type Theme, useTheme } from "@/lib/theme";

const NEXT = {
  light: { label: "Switch to dark theme", Icon: Moon },
  dark: { label: "Use the system theme", Icon: Monitor },
  systemDark: { label: "Switch to light theme", Icon: Sun },
  systemLight: { label: "Switch to dark theme", Icon: Moon },
} as const;

/**
 * Cycles light → dark → system's: from the system's theme it switches to the other one, from an
 * explicit dark back to the system's, so a fan can always return to following the device. The
 * choice is kept across reloads.
 */
export function ThemeToggle({ className }: { className?: string }) {
  const { theme, resolvedTheme, setTheme } = useTheme();
  const step =
    theme === "system" ? (resolvedTheme === "dark" ? "systemDark" : "systemLight") : theme;
  const { label, Icon } = NEXT[step];
  const next: Theme =
    theme === "light"
      ? "dark"
      : theme === "dark"
        ? "system"
        : resolvedTheme === "dark"
          ? "light"
          : "dark";
  return (
    <button
      type="button"
      onClick={() => setTheme(next)}
      aria-label={label}
      title={label}
      data-testid="theme-toggle"
      data-theme-choice={theme}
      className={clsx(
        "inline-flex size-10 shrink-0 items-center justify-center rounded-full text-stone-700 transition hover:bg-stone-100 hover:text-stone-900 dark:text-stone-200 dark:hover:bg-white/10 dark:hover:text-white",
        className,
      )}
    >
      <Icon aria-hidden="true" className="size-5" />
    </button>
  );
}
