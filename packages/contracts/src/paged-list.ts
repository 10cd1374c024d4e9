import { z } from "zod";
import { paginationSchema } from "./api";

/** A page of a list, as every list route answers it (DESIGN.md, API conventions). */
export const pagedListResponse = <Item extends z.ZodType>(item: Item) =>
  z.object({
    success: z.literal(true),
    data: z.array(item),
    pagination: paginationSchema,
  });

/** The page and limit of a paged list's query; the page size and its cap differ per screen. */
export const pageQueryFields = ({ limit, maxLimit }: { limit: number; maxLimit: number }) => ({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(maxLimit).default(limit),
});
