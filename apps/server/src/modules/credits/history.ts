import type { CreditMovementView, Pagination } from "@twinline/contracts";
import { count, desc, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { creditLedger } from "../../db/schema/index.ts";
import { pageOffset, pagination } from "../../lib/paging.ts";

/** A user's credit movements, newest first (the ledger is indexed by user and date). */
export async function creditHistory(
  db: Database,
  userId: string,
  page: number,
  limit: number,
): Promise<{ data: CreditMovementView[]; pagination: Pagination }> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
      .limit(limit)
      .offset(pageOffset({ page, limit })),
    db.select({ n: count() }).from(creditLedger).where(eq(creditLedger.userId, userId)),
  ]);
  return {
    data: rows.map((row) => ({
      _id: row.id,
      kind: row.kind,
      amount: row.amount,
      balanceAfter: row.balanceAfter,
      reason: typeof row.metadata.reason === "string" ? row.metadata.reason : null,
      createdAt: row.createdAt.toISOString(),
    })),
    pagination: pagination(total?.n ?? 0, { page, limit }),
  };
}
