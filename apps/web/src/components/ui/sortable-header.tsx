import { clsx } from "clsx";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";

interface SortableHeaderProps {
  label: string;
  /** The current direction when this column sorts the table, else null. */
  direction: "ascending" | "descending" | null;
  onSort: () => void;
  className?: string;
}

/** A column header that sorts: a button inside a <th> carrying aria-sort. */
export function SortableHeader({ label, direction, onSort, className }: SortableHeaderProps) {
  const Icon =
    direction === "ascending" ? ArrowUp : direction === "descending" ? ArrowDown : ArrowUpDown;
  return (
    <th scope="col" aria-sort={direction ?? "none"} className={clsx(thClasses, className)}>
      <button
        type="button"
        onClick={onSort}
        className="-mx-1.5 inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-left uppercase hover:text-stone-900 dark:hover:text-white"
      >
        {label}
        <Icon
          aria-hidden="true"
          className={clsx(
            "size-3.5",
            direction ? "text-brand-600 dark:text-brand-400" : "opacity-50",
          )}
        />
      </button>
    </th>
  );
}

// Headers may wrap (two-word labels take two lines) and cells are padded lightly, so the admin
// tables fit 1280 px with the sidebar open; cells that hold names or e-mails wrap themselves.
export const thClasses =
  "px-3 py-3 text-left align-bottom text-xs font-semibold tracking-wide text-stone-500 uppercase dark:text-stone-400";
const cellClasses = "px-3 py-3 text-sm text-stone-700 dark:text-stone-300";
export const tdClasses = `${cellClasses} whitespace-nowrap`;
/**
 * A cell that wraps only between words (a name, a date, a period; an e-mail where EmailText
 * allows) so a wide table can fit without breaking a word; text that must stay whole on one line
 * (an id) is cut with an ellipsis inside it.
 */
export const wordWrapTdClasses = cellClasses;
