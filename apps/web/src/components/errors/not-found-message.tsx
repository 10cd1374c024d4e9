import { clsx } from "clsx";

/**
 * The 404 figure, "Oops! Page not found" and what it means: the whole-page 404 and the one
 * inside the admin layout (`compact`, a size smaller) say the same.
 */
export function NotFoundMessage({ compact = false }: { compact?: boolean }) {
  return (
    <>
      <p
        className={clsx(
          "bg-gradient-to-r from-brand-600 to-orange-500 bg-clip-text font-display font-black tracking-tight text-transparent",
          compact ? "text-7xl sm:text-8xl" : "text-8xl sm:text-9xl",
        )}
      >
        404
      </p>
      <h1
        className={clsx(
          "mt-4 font-display text-2xl font-bold text-stone-900 dark:text-white",
          !compact && "sm:text-3xl",
        )}
      >
        Oops! Page not found
      </h1>
      <p className="mt-3 text-stone-600 dark:text-stone-300">
        The page you are looking for does not exist or has moved.
      </p>
    </>
  );
}
