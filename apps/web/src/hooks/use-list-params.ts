import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import type { z } from "zod";

/** A list query whose every key has a default or is optional (the contracts' list queries). */
type ListQuerySchema = z.ZodObject<Record<string, z.ZodType>>;

export type SortOrder = 1 | -1;

export interface UseListParamsOptions<Params> {
  /** The direction a column starts in when first clicked (default: descending, -1). */
  firstSortOrder?: (field: string) => SortOrder;
  /** Keys the address never carries (the page size of a screen, say). */
  fixed?: Partial<Params>;
}

/** firstSortOrder of the people lists: name and e-mail start A to Z; dates and numbers largest first. */
export function namesAscendingFirst(field: string): SortOrder {
  return field === "name" || field === "email" ? 1 : -1;
}

/** Each key read on its own: one bad value in the address falls back to its default alone. */
function readParams<S extends ListQuerySchema>(schema: S, search: URLSearchParams): z.output<S> {
  const params: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const raw = search.get(key);
    const parsed = raw === null || raw === "" ? undefined : field.safeParse(raw);
    params[key] = parsed?.success ? parsed.data : field.safeParse(undefined).data;
  }
  return params as z.output<S>;
}

/**
 * THE state of a list screen (page, sort, search, filters), kept in the address so Back,
 * reload and shared links keep it, and read through the contract's own query schema, so the
 * screen asks the server only what the server accepts. Values equal to the defaults are left
 * out of the address; a filter change starts again on page 1.
 */
export function useListParams<S extends ListQuerySchema>(
  schema: S,
  options: UseListParamsOptions<z.output<S>> = {},
) {
  type Params = z.output<S>;
  const [searchParams, setSearchParams] = useSearchParams();
  const defaults = useMemo(() => readParams(schema, new URLSearchParams()), [schema]);
  const { fixed, firstSortOrder } = options;
  const params = useMemo<Params>(
    () => ({ ...readParams(schema, searchParams), ...fixed }),
    [schema, searchParams, fixed],
  );

  const update = useCallback(
    (patch: Partial<Params>) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          const merged: Record<string, unknown> = { ...params, ...patch };
          for (const key of Object.keys(schema.shape)) {
            const value = merged[key];
            if (fixed && key in fixed) continue;
            if (value === undefined || value === "" || String(value) === String(defaults[key])) {
              next.delete(key);
            } else {
              next.set(key, String(value));
            }
          }
          return next;
        },
        { replace: true },
      );
    },
    [params, defaults, fixed, schema, setSearchParams],
  );

  /** A filter or search change starts again on page 1. */
  const filter = useCallback(
    (patch: Partial<Params>) => update({ ...patch, page: 1 } as unknown as Partial<Params>),
    [update],
  );

  /** The same column flips its direction; a new column starts in its first direction. */
  const sort = useCallback(
    (field: string) => {
      const sortOrder: SortOrder =
        params.sortBy === field
          ? params.sortOrder === 1
            ? -1
            : 1
          : (firstSortOrder?.(field) ?? -1);
      update({ sortBy: field, sortOrder, page: 1 } as unknown as Partial<Params>);
    },
    [params, update, firstSortOrder],
  );

  const reset = useCallback(() => update({ ...defaults }), [update, defaults]);

  return { params, defaults, update, filter, sort, reset };
}
