import { type AnyColumn, gte, lt, lte, type SQL } from "drizzle-orm";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The first instant after a yyyy-MM-dd UTC day. */
function dayAfter(date: string): Date {
  const next = new Date(`${date}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/**
 * THE date filter of every list (checked by the contracts' queryDate/queryDateOrTime): a
 * yyyy-MM-dd is a whole UTC day, so an end date includes its day; an ISO date-time is that
 * instant, both ends included.
 */
export function dateRange(column: AnyColumn, startDate?: string, endDate?: string): SQL[] {
  const conditions: SQL[] = [];
  if (startDate) {
    const start = DATE_ONLY.test(startDate) ? `${startDate}T00:00:00.000Z` : startDate;
    conditions.push(gte(column, new Date(start)));
  }
  if (endDate) {
    conditions.push(
      DATE_ONLY.test(endDate) ? lt(column, dayAfter(endDate)) : lte(column, new Date(endDate)),
    );
  }
  return conditions;
}
