import {
  CURRENCIES,
  type Currency,
  type MoneyMetric,
  type RevenueFigures,
} from "@twinline/contracts";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { revenueDays } from "../../db/schema/index.ts";
import { toMajor } from "../../lib/money.ts";
import { utcDaySql as day, utcPeriods } from "./periods.ts";

export type RevenueKind = "all" | "credits" | "subscriptions";

const FIGURES = [
  "totalRevenue",
  "todayRevenue",
  "yesterdayRevenue",
  "thisMonthRevenue",
  "lastMonthRevenue",
] as const;

/**
 * THE revenue figures (docs/decisions/0027, 0036): successful payments of a kind in all, today,
 * yesterday, this calendar month and last, per currency, from the rollup (revenue_days: a few
 * rows a day and currency). The dashboard (kind all) and the transaction screens' cards read
 * this one function, so they agree. `value` is USD; other currencies are listed beside it.
 */
export async function revenueFigures(
  db: Database,
  kind: RevenueKind,
  now: Date,
): Promise<RevenueFigures> {
  const p = utcPeriods(now);
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const minor =
    kind === "credits"
      ? sql`${revenueDays.creditsMinor}`
      : kind === "subscriptions"
        ? sql`${revenueDays.subscriptionMinor}`
        : sql`${revenueDays.creditsMinor} + ${revenueDays.subscriptionMinor}`;
  const between = (from: Date, to: Date) =>
    sql<string>`coalesce(sum(${minor}) filter (where ${revenueDays.day} >= ${day(from)} and ${revenueDays.day} < ${day(to)}), 0)::text`;
  const rows = await db
    .select({
      currency: revenueDays.currency,
      totalRevenue: sql<string>`coalesce(sum(${minor}), 0)::text`,
      todayRevenue: between(p.today, p.tomorrow),
      yesterdayRevenue: between(p.yesterday, p.today),
      thisMonthRevenue: between(p.thisMonth, nextMonth),
      lastMonthRevenue: between(p.lastMonth, p.thisMonth),
    })
    .from(revenueDays)
    .groupBy(revenueDays.currency);
  const byCurrency = new Map(rows.map((row) => [row.currency, row]));
  const metric = (figure: (typeof FIGURES)[number]): MoneyMetric => {
    const amounts = CURRENCIES.map((currency: Currency) => ({
      currency,
      // Minor units are whole; the sums are read as text so no bigint is rounded on the way.
      value: toMajor(Number(byCurrency.get(currency)?.[figure] ?? 0)),
    })).filter((entry) => entry.currency === "usd" || entry.value !== 0);
    return { value: amounts[0]?.value ?? 0, byCurrency: amounts };
  };
  return Object.fromEntries(FIGURES.map((figure) => [figure, metric(figure)])) as RevenueFigures;
}

/** Successful USD revenue in cents per UTC day from `since` on (the dashboard's chart). */
export async function dailyUsdRevenue(db: Database, since: Date): Promise<Map<string, number>> {
  const rows = await db
    .select({
      day: sql<string>`to_char(${revenueDays.day}, 'YYYY-MM-DD')`,
      cents: sql<string>`sum(${revenueDays.creditsMinor} + ${revenueDays.subscriptionMinor})::text`,
    })
    .from(revenueDays)
    .where(sql`${revenueDays.currency} = 'usd' and ${revenueDays.day} >= ${day(since)}`)
    .groupBy(revenueDays.day);
  return new Map(rows.map((row) => [row.day, Number(row.cents)]));
}
