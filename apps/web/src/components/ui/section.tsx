import { clsx } from "clsx";
import { type ReactNode, useId } from "react";

/** A titled card of a form or screen, labelled by its heading for assistive technology. */
export function Section({
  title,
  description,
  aside,
  className,
  children,
}: {
  title: string;
  description?: ReactNode;
  /** Actions shown beside the title (a button, a status badge). */
  aside?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={clsx(
        "rounded-2xl border border-stone-200 bg-white p-4 shadow-xs sm:p-6 dark:border-white/10 dark:bg-stone-900",
        className,
      )}
    >
      <div className="mb-5 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2
            id={headingId}
            className="font-display text-lg font-semibold text-stone-900 dark:text-white"
          >
            {title}
          </h2>
          {description ? (
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{description}</p>
          ) : null}
        </div>
        {aside}
      </div>
      {children}
    </section>
  );
}
