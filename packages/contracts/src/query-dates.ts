import { z } from "zod";

/** The years a query date may name: PostgreSQL has no year 0, and the day after must stay 4-digit. */
export const QUERY_DATE_YEARS = { min: 1, max: 9998 } as const;

const YEARS = `between the years ${QUERY_DATE_YEARS.min} and ${QUERY_DATE_YEARS.max}`;

const inQueryYears = (value: string): boolean => {
  const year = Number(value.slice(0, 4));
  return year >= QUERY_DATE_YEARS.min && year <= QUERY_DATE_YEARS.max;
};

/**
 * A calendar date of a query (yyyy-MM-dd): a whole UTC day, so as an end date it includes its
 * day (the server's lib/date-range.ts reads it so).
 */
export function queryDate(message: string) {
  return z.iso.date({ error: message }).refine(inQueryYears, { error: `${message}, ${YEARS}` });
}

const isDate = (value: string) => z.iso.date().safeParse(value).success;
const isDateTime = (value: string) => z.iso.datetime({ offset: true }).safeParse(value).success;

/** A query date as queryDate, or an ISO date-time with its offset: that instant. */
export function queryDateOrTime(message: string) {
  return z
    .string({ error: message })
    .max(40, { error: message })
    .refine((value) => isDate(value) || isDateTime(value), { error: message, abort: true })
    .refine((value) => inQueryYears(value) && !Number.isNaN(Date.parse(value)), {
      error: `${message}, ${YEARS}`,
    });
}
