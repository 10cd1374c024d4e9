import { CURRENCIES, type MoneyMetric } from "@twinline/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { payments } from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";

/**
 * A user's successful payments per currency, net of refunds, major units (the admin's user
 * details "Total Spent"): what the user paid and kept paid (a payment refunded in part counts
 * what is left of it, one refunded in whole nothing). USD the headline, other currencies beside
 * it, never added together.
 */
export async function totalSpentOf(db: Database, userId: string): Promise<MoneyMetric> {
  const rows = await db
    .select({
      currency: payments.currency,
      total: sql<string>`coalesce(sum(${payments.amountMinor} - ${payments.refundedMinor}), 0)::text`,
    })
    .from(payments)
    .where(and(eq(payments.userId, userId), inArray(payments.status, ["success", "refunded"])))
    .groupBy(payments.currency);
  const totals = new Map(rows.map((row) => [row.currency, toMajor(Number(row.total))]));
  const byCurrency = CURRENCIES.map((currency) => ({
    currency,
    value: totals.get(currency) ?? 0,
  })).filter((entry) => entry.currency === "usd" || entry.value !== 0);
  return { value: totals.get("usd") ?? 0, byCurrency };
}
