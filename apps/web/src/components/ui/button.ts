import { clsx } from "clsx";

/** Class names for buttons and button-looking links, so both share one look. */
export type ButtonVariant = "primary" | "secondary" | "ghost";
export type ButtonSize = "sm" | "md" | "lg";

const base =
  "inline-flex items-center justify-center gap-2 rounded-full font-semibold whitespace-nowrap transition duration-200 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:pointer-events-none disabled:opacity-50";

const variants: Record<ButtonVariant, string> = {
  primary:
    "bg-gradient-to-r from-brand-600 to-orange-500 text-white shadow-lg shadow-brand-600/25 hover:brightness-110 hover:shadow-brand-600/40 active:brightness-95",
  secondary:
    "border border-stone-300 bg-white/80 text-stone-900 hover:border-brand-300 hover:bg-brand-50 dark:border-white/15 dark:bg-white/5 dark:text-white dark:hover:border-brand-400/60 dark:hover:bg-white/10",
  ghost:
    "text-stone-700 hover:bg-stone-100 hover:text-stone-900 dark:text-stone-200 dark:hover:bg-white/10 dark:hover:text-white",
};

const sizes: Record<ButtonSize, string> = {
  sm: "h-9 px-3.5 text-sm",
  md: "h-11 px-5 text-sm sm:text-base",
  lg: "h-12 px-6 text-base sm:h-13 sm:px-7",
};

/** Turns a primary button red, for what cannot be undone lightly. */
export const destructiveButtonClasses = "from-red-600 to-red-500 shadow-red-600/25";

export function buttonClasses(
  variant: ButtonVariant = "primary",
  size: ButtonSize = "md",
  className?: string,
): string {
  return clsx(base, variants[variant], sizes[size], className);
}
