import type { ReactNode } from "react";
import { thClasses } from "./sortable-header";
import { TableScroll } from "./table-scroll";

/** A column of a LogTable: its header, and its width class (none: it takes what is left). */
export interface LogColumn {
  label: string;
  width?: string;
}

/** The quiet text of a log's cells (ids, IPs, "—"). */
export const mutedText = "text-stone-600 dark:text-stone-400";

/**
 * A table of log rows that wrap (the audit log, the jobs): fixed column widths, so the one
 * column without a width (the change, the error) keeps the rest of the line and the table fits
 * at 1280 px with the sidebar open; narrower screens scroll it sideways (TableScroll).
 */
export function LogTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: readonly LogColumn[];
  /** The rows (`tr`s). */
  children: ReactNode;
}) {
  return (
    <TableScroll label={caption}>
      <table className="w-full min-w-[48rem] table-fixed text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          {columns.map((column) => (
            <col key={column.label} className={column.width} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={thClasses}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100 dark:divide-white/5">{children}</tbody>
      </table>
    </TableScroll>
  );
}
