import { clsx } from "clsx";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";

interface Edges {
  left: boolean;
  right: boolean;
}

export const TABLE_SCROLL_HINT = "Scroll sideways to see every column";

/**
 * A table's sideways scroll on narrow screens, made visible: a shade on each side that has more
 * columns, and a hint under the table while it does not fit. Phones hide scrollbars, so without
 * these a clipped column looked like the end of the table. Focusable while it scrolls, so the
 * arrow keys scroll it too.
 */
export function TableScroll({
  label,
  testId,
  children,
}: {
  /** Names the scrolling region for screen readers (the table's caption). */
  label: string;
  testId?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  const [edges, setEdges] = useState<Edges>({ left: false, right: false });
  const measure = useCallback(() => {
    const box = ref.current;
    if (!box) return;
    const left = box.scrollLeft > 1;
    const right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    setEdges((old) => (old.left === left && old.right === right ? old : { left, right }));
  }, []);
  useEffect(() => {
    const box = ref.current;
    measure();
    if (!box || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, [measure]);
  const scrolls = edges.left || edges.right;
  const shade = "pointer-events-none absolute inset-y-0 w-6 from-stone-900/15 to-transparent";
  return (
    <div className="relative">
      <section
        ref={ref}
        onScroll={measure}
        data-testid={testId}
        data-scrolls={scrolls || undefined}
        tabIndex={scrolls ? 0 : undefined}
        aria-label={label}
        className="overflow-x-auto"
      >
        {children}
      </section>
      {edges.left ? (
        <div aria-hidden="true" className={clsx(shade, "left-0 bg-gradient-to-r")} />
      ) : null}
      {edges.right ? (
        <div aria-hidden="true" className={clsx(shade, "right-0 bg-gradient-to-l")} />
      ) : null}
      {scrolls ? (
        <p
          data-testid="table-scroll-hint"
          className="border-t border-stone-100 px-4 py-1.5 text-xs text-stone-600 dark:border-white/5 dark:text-stone-400"
        >
          {TABLE_SCROLL_HINT} <span aria-hidden="true">→</span>
        </p>
      ) : null}
    </div>
  );
}
