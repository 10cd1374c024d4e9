import { BILLING_MESSAGES, MONEY_TOOLS_MESSAGES } from "@twinline/contracts";
import { and, eq, gt, lte } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  type CheckoutSessionRow,
  checkoutSessions,
  type UserRow,
  users,
} from "../../../db/schema/index.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { BalanceFullError, balanceHolds } from "../../credits/ledger.ts";
import { isOpenSubscription } from "../../users/subscription-state.ts";
import type { SubscriptionsReader } from "../subscriptions/subscriptions-reader.ts";

/**
 * One plan at a time: a subscription the provider still holds open (active or past due,
 * users/subscription-state.ts) refuses another plan's checkout with 409.
 */
export async function refuseSecondPlan(subscriptions: SubscriptionsReader, user: UserRow) {
  const current = await subscriptions.currentRow(user.id);
  if (current && isOpenSubscription(current)) {
    throw new HttpError(409, BILLING_MESSAGES.alreadySubscribed);
  }
}

/**
 * One plan checkout open per user (decision 0051): sessions past their expiry at `now` are
 * closed first; one still open answers 409. The partial unique index settles parallel requests.
 */
export async function refuseOpenPlanCheckout(db: Database, user: UserRow, now: Date) {
  const open = and(
    eq(checkoutSessions.userId, user.id),
    eq(checkoutSessions.mode, "subscription"),
    eq(checkoutSessions.status, "open"),
  );
  await db
    .update(checkoutSessions)
    .set({ status: "expired" })
    .where(and(open, lte(checkoutSessions.expiresAt, now)));
  const [still] = await db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(open, gt(checkoutSessions.expiresAt, now)))
    .limit(1);
  if (still) throw new HttpError(409, MONEY_TOOLS_MESSAGES.planCheckoutOpen);
}

/**
 * Credits that the balance could not hold would be paid for and never granted (issue 24): the
 * checkout is refused before anything is charged.
 */
export async function refuseFullBalance(db: Database, userId: string, credits: number) {
  const [row] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  if (!balanceHolds(row?.credits ?? 0, credits)) throw new BalanceFullError();
}

/** The user's own session; 404 for another's or none. */
export async function ownSession(
  db: Database,
  user: UserRow,
  sessionId: string,
): Promise<CheckoutSessionRow> {
  const [row] = await db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.sessionId, sessionId), eq(checkoutSessions.userId, user.id)));
  if (!row) throw new HttpError(404, BILLING_MESSAGES.sessionNotFound);
  return row;
}

/** The session's row as it is now (after the sandbox or the fulfilment wrote it). */
export async function freshSession(
  db: Database,
  row: CheckoutSessionRow,
): Promise<CheckoutSessionRow> {
  const [fresh] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, row.id));
  return fresh ?? row;
}
