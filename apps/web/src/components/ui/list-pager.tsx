import type { Pagination } from "@twinline/contracts";
import { formatCount } from "@/lib/format";
import { usePageRange } from "./paged-table";
import { Pager } from "./pager";

/**
 * The pager under a server-paged list with "Showing X to Y of Z users" ("Showing 0 users" when
 * there are none); a page past the end (a search shrank the list) goes back to the last one.
 */
export function ListPager({
  pagination,
  page,
  onPage,
  disabled,
  noun,
}: {
  pagination: Pagination | undefined;
  page: number;
  onPage: (page: number) => void;
  disabled: boolean;
  /** What the list counts, plural: "users". */
  noun: string;
}) {
  const { first, last } = usePageRange(pagination, page, onPage);
  return (
    <Pager
      page={page}
      pages={pagination?.pages ?? 1}
      disabled={disabled}
      onPage={onPage}
      summary={
        pagination
          ? pagination.total > 0
            ? `Showing ${first} to ${last} of ${formatCount(pagination.total)} ${noun}`
            : `Showing 0 ${noun}`
          : undefined
      }
    />
  );
}
