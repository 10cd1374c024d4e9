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
        className="-mx-1.5 inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 uppercase hover:text-stone-900 dark:hover:text-white"
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

export const thClasses =
  "px-4 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-stone-500 uppercase dark:text-stone-400";
export const tdClasses = "px-4 py-3 text-sm whitespace-nowrap text-stone-700 dark:text-stone-300";
