import { sql } from "drizzle-orm";
import { utcDay } from "../../lib/utc-day.ts";

/** UTC period bounds of the dashboards (today, yesterday, this month, last month). */
export interface UtcPeriods {
  today: Date;
  yesterday: Date;
  tomorrow: Date;
  thisMonth: Date;
  lastMonth: Date;
}

const DAY_MS = 86_400_000;

export { utcDay };
/** The same as a SQL date, to compare with the rollup's `day`. */
export const utcDaySql = (date: Date) => sql`${utcDay(date)}::date`;

export function utcPeriods(now: Date): UtcPeriods {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return {
    today: new Date(day),
    yesterday: new Date(day - DAY_MS),
    tomorrow: new Date(day + DAY_MS),
    thisMonth: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    lastMonth: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)),
  };
}

/** The `days` UTC days ending today, oldest first, as yyyy-MM-dd. */
export function lastUtcDays(now: Date, days: number): string[] {
  const { today } = utcPeriods(now);
  return Array.from({ length: days }, (_, i) =>
    utcDay(new Date(today.getTime() - (days - 1 - i) * DAY_MS)),
  );
}
