import { ChevronLeft, ChevronRight } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";

interface PagerProps {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  disabled?: boolean;
  /** e.g. "Showing 1 to 10 of 42 users" */
  summary?: string;
}

/** Previous / "Page X of N" / Next. */
export function Pager({ page, pages, onPage, disabled, summary }: PagerProps) {
  const total = Math.max(pages, 1);
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-col items-center gap-3 border-t border-stone-200 px-4 py-3 sm:flex-row sm:justify-between dark:border-white/10"
    >
      <p className="text-sm text-stone-600 dark:text-stone-400">{summary}</p>
      <div className="flex items-center gap-2">
        <button
          type="button"
          onClick={() => onPage(page - 1)}
          disabled={disabled || page <= 1}
          className={buttonClasses("secondary", "sm")}
        >
          <ChevronLeft aria-hidden="true" className="size-4" />
          Previous
        </button>
        <span
          className="px-1 text-sm whitespace-nowrap text-stone-700 dark:text-stone-300"
          aria-live="polite"
        >
          Page {Math.min(page, total)} of {total}
        </span>
        <button
          type="button"
          onClick={() => onPage(page + 1)}
          disabled={disabled || page >= total}
          className={buttonClasses("secondary", "sm")}
        >
          Next
          <ChevronRight aria-hidden="true" className="size-4" />
        </button>
      </div>
    </nav>
  );
}
