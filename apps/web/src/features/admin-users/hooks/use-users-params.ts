import { USER_SORT_FIELDS } from "@twinline/contracts";
import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import type { SortOrder, UserSortField, UsersListParams } from "../api/users";

const DEFAULTS: UsersListParams = { page: 1, sortBy: "createdAt", sortOrder: -1, search: "" };

/** Text columns start A to Z; dates and numbers start newest or largest first. */
export function firstSortOrder(field: UserSortField): SortOrder {
  return field === "name" || field === "email" ? 1 : -1;
}

function isSortField(value: string | null): value is UserSortField {
  return (USER_SORT_FIELDS as readonly string[]).includes(value ?? "");
}

/** The users table's page, sort and search, kept in the address so Back and reload keep them. */
export function useUsersParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo<UsersListParams>(() => {
    const page = Number.parseInt(searchParams.get("page") ?? "", 10);
    const sortBy = searchParams.get("sortBy");
    const order = searchParams.get("sortOrder");
    return {
      page: Number.isFinite(page) && page >= 1 ? page : DEFAULTS.page,
      sortBy: isSortField(sortBy) ? sortBy : DEFAULTS.sortBy,
      sortOrder: order === "1" ? 1 : order === "-1" ? -1 : DEFAULTS.sortOrder,
      search: searchParams.get("search") ?? DEFAULTS.search,
    };
  }, [searchParams]);

  const update = useCallback(
    (patch: Partial<UsersListParams>) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          const merged = { ...params, ...patch };
          const entries: [string, string, string][] = [
            ["page", String(merged.page), String(DEFAULTS.page)],
            ["sortBy", merged.sortBy, DEFAULTS.sortBy],
            ["sortOrder", String(merged.sortOrder), String(DEFAULTS.sortOrder)],
            ["search", merged.search, DEFAULTS.search],
          ];
          for (const [key, value, fallback] of entries) {
            if (value === fallback) next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: true },
      );
    },
    [params, setSearchParams],
  );

  const sort = useCallback(
    (field: UserSortField) => {
      const sortOrder: SortOrder =
        params.sortBy === field ? (params.sortOrder === 1 ? -1 : 1) : firstSortOrder(field);
      update({ sortBy: field, sortOrder, page: 1 });
    },
    [params, update],
  );

  return { params, update, sort };
}
