import { PROMOTION_MESSAGES } from "@twinline/contracts";
import { and, count, eq, gt, inArray, or, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { checkoutSessions, promotionCodes } from "../../../db/schema/index.ts";
import { HttpError } from "../../../plugins/errors.ts";

/**
 * The uses of a code: checkouts paid with it, and open ones (each holds a use until it expires
 * or is paid). Counted under the code's row lock by `reserve`.
 */
const inUse = (now: Date) =>
  or(
    and(eq(checkoutSessions.status, "complete"), eq(checkoutSessions.paymentStatus, "paid")),
    and(eq(checkoutSessions.status, "open"), gt(checkoutSessions.expiresAt, now)),
  );

/** The code's uses, and this fan's (none asked: `userId` null). */
export async function uses(tx: Database, codeId: string, userId: string | null, at: Date) {
  const [row] = await tx
    .select({
      total: count(),
      mine: sql<number>`count(*) filter (where ${checkoutSessions.userId} = ${userId}::uuid)`.mapWith(
        Number,
      ),
    })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.promotionCodeId, codeId), inUse(at)));
  return { total: row?.total ?? 0, mine: row?.mine ?? 0 };
}

/** Uses of several codes at once (a page of the admin's list). */
export async function usesOf(db: Database, ids: string[], at: Date): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: checkoutSessions.promotionCodeId, n: count() })
    .from(checkoutSessions)
    .where(and(inArray(checkoutSessions.promotionCodeId, ids), inUse(at)))
    .groupBy(checkoutSessions.promotionCodeId);
  return new Map(rows.map((row) => [String(row.id), row.n]));
}

export async function byCode(tx: Database, code: string, lock: boolean) {
  const query = tx.select().from(promotionCodes).where(eq(promotionCodes.code, code));
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

/** The code, or the 404 that names it missing; `lock` takes its row lock. */
export async function byId(tx: Database, id: string, lock = false) {
  const query = tx.select().from(promotionCodes).where(eq(promotionCodes.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new HttpError(404, PROMOTION_MESSAGES.notFound);
  return row;
}
