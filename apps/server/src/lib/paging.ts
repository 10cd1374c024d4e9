import type { Pagination } from "@twinline/contracts";

/** A page request: which page (1-based) and how many rows on it. */
export interface PageRequest {
  page: number;
  limit: number;
}

/** THE pagination of every list answer (DESIGN.md, API conventions): the last page may be short. */
export const pagination = (total: number, { page, limit }: PageRequest): Pagination => ({
  total,
  page,
  limit,
  pages: Math.ceil(total / limit),
});

/** The rows to skip before a page. */
export const pageOffset = ({ page, limit }: PageRequest): number => (page - 1) * limit;
