import type { Json } from "./json.ts";

/** One page of a list, as Stripe answers it (limit, starting_after). */
export function listPage(items: Json[], query: Json) {
  const limit = Number(query.limit ?? 10);
  const start = query.starting_after
    ? items.findIndex((item) => item.id === query.starting_after) + 1
    : 0;
  const page = items.slice(start, start + limit);
  return { object: "list", data: page, has_more: start + limit < items.length, url: "" };
}
