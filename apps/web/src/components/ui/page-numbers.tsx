import { clsx } from "clsx";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { buttonClasses } from "./button";

export type PageItem = number | "ellipsis-start" | "ellipsis-end";

/**
 * The pages a numbered pager shows: the first and the last, the current one with `neighbours`
 * on each side, and an ellipsis for each gap (a gap of one page shows that page instead).
 */
export function pageItems(page: number, pages: number, neighbours = 1): PageItem[] {
  const total = Math.max(1, pages);
  const current = Math.min(Math.max(1, page), total);
  const wanted = new Set<number>([1, total]);
  for (let p = current - neighbours; p <= current + neighbours; p++) {
    if (p >= 1 && p <= total) wanted.add(p);
  }
  const sorted = [...wanted].sort((a, b) => a - b);
  const items: PageItem[] = [];
  for (const [index, p] of sorted.entries()) {
    const previous = sorted[index - 1];
    if (previous !== undefined && p - previous === 2) items.push(previous + 1);
    else if (previous !== undefined && p - previous > 2) {
      items.push(p < current ? "ellipsis-start" : "ellipsis-end");
    }
    items.push(p);
  }
  return items;
}

interface PageNumbersProps {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  disabled?: boolean;
  /** e.g. "Showing 1 to 10 of 42 calls" */
  summary?: string;
}

/** Previous, the page numbers with the current page's neighbours and ellipses, Next. */
export function PageNumbers({ page, pages, onPage, disabled, summary }: PageNumbersProps) {
  const total = Math.max(pages, 1);
  const items = pageItems(page, total);
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-col items-center gap-3 border-t border-stone-200 px-4 py-3 sm:flex-row sm:justify-between dark:border-white/10"
    >
      <p className="text-sm text-stone-600 dark:text-stone-400">{summary}</p>
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          <button
            type="button"
            onClick={() => onPage(page - 1)}
            disabled={disabled || page <= 1}
            aria-label="Previous page"
            className={buttonClasses("ghost", "sm", "px-2.5")}
          >
            <ChevronLeft aria-hidden="true" className="size-4" />
          </button>
        </li>
        {items.map((item) =>
          typeof item === "number" ? (
            <li key={item}>
              <button
                type="button"
                onClick={() => onPage(item)}
                disabled={disabled}
                aria-current={item === page ? "page" : undefined}
                aria-label={`Page ${item}`}
                className={clsx(
                  "inline-flex h-9 min-w-9 items-center justify-center rounded-full px-2 text-sm font-semibold tabular-nums transition focus-visible:outline-2 focus-visible:outline-offset-2 disabled:opacity-50",
                  item === page
                    ? "bg-brand-600 text-white"
                    : "text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-white/10",
                )}
              >
                {item}
              </button>
            </li>
          ) : (
            <li key={item} aria-hidden="true" className="px-1 text-stone-500">
              …
            </li>
          ),
        )}
        <li>
          <button
            type="button"
            onClick={() => onPage(page + 1)}
            disabled={disabled || page >= total}
            aria-label="Next page"
            className={buttonClasses("ghost", "sm", "px-2.5")}
          >
            <ChevronRight aria-hidden="true" className="size-4" />
          </button>
        </li>
      </ul>
    </nav>
  );
}
