import { randomUUID } from "node:crypto";
import { and, asc, eq, gt, isNull, lt } from "drizzle-orm";
import { type CheckoutSessionRow, checkoutSessions } from "../../../db/schema/index.ts";
import type { PaymentsProvider } from "../../../providers/payments/index.ts";
import type { BillingSweepDeps } from "../sweep-deps.ts";

/** A session still open this long after it was made is asked about at its provider. */
export const CHECKOUT_SWEEP_AFTER_MS = 5 * 60_000;
/** How often the sweep runs. */
export const CHECKOUT_SWEEP_EVERY_MS = 60_000;
/** Every minute, as a job (docs/decisions/0072). */
export const CHECKOUT_SWEEP_CRON = "* * * * *";
const BATCH = 100;

export interface SweepResult {
  checked: number;
  completed: number;
  expired: number;
}

/**
 * The safety net under the webhook (docs/decisions/0037): every minute, checkout sessions still
 * open a few minutes after they were made are re-read at their provider. One paid there goes
 * through THE fulfilment (exactly once: the session's row is locked and marked), one expired
 * there is closed here, and a sandbox session past its expiry is expired. So a payment whose
 * webhook never arrived, or whose server died half-way, is credited without the buyer coming
 * back.
 */
export function createCheckoutSweep(options: BillingSweepDeps) {
  const { db, fulfilment, sandbox, clock, log } = options;
  // Where the last pass stopped: many sessions left open (abandoned at Stripe for a day) are
  // walked through in batches, so a paid one behind them waits one lap, not a day.
  let after: Date | null = null;

  const deliver = (row: CheckoutSessionRow, type: string, provider: PaymentsProvider) =>
    fulfilment.handle(
      {
        id: `evt_sweep_${randomUUID()}`,
        type,
        created: Math.floor(clock.now() / 1000),
        data: { object: { id: row.sessionId, object: "checkout.session" } },
      },
      provider,
    );

  const check = async (row: CheckoutSessionRow, now: number): Promise<keyof SweepResult | null> => {
    const provider = row.provider === "sandbox" ? sandbox : await options.payments();
    // The Stripe key was removed since: the session cannot be asked about now.
    if (provider.mode !== row.provider) return null;
    const session = await provider.retrieveCheckoutSession(row.sessionId);
    if (!session) {
      // Unknown to its provider (a test account emptied): nothing can be paid on it any more.
      await db
        .update(checkoutSessions)
        .set({ status: "expired" })
        .where(and(eq(checkoutSessions.id, row.id), isNull(checkoutSessions.fulfilledAt)));
      return "expired";
    }
    if (session.status === "complete" && session.paymentStatus !== "unpaid") {
      await deliver(row, "checkout.session.completed", provider);
      return "completed";
    }
    if (session.status === "expired") {
      await deliver(row, "checkout.session.expired", provider);
      return "expired";
    }
    // Stripe expires its sessions itself (the next sweep sees it); the sandbox is ours to expire.
    if (session.status === "open" && row.provider === "sandbox" && row.expiresAt.getTime() < now) {
      await sandbox.cancel(row.sessionId);
      return "expired";
    }
    return null;
  };

  const sweep = async (): Promise<SweepResult> => {
    const now = clock.now();
    const result: SweepResult = { checked: 0, completed: 0, expired: 0 };
    const rows = await db
      .select()
      .from(checkoutSessions)
      .where(
        and(
          eq(checkoutSessions.status, "open"),
          isNull(checkoutSessions.fulfilledAt),
          lt(checkoutSessions.createdAt, new Date(now - CHECKOUT_SWEEP_AFTER_MS)),
          after ? gt(checkoutSessions.createdAt, after) : undefined,
        ),
      )
      .orderBy(asc(checkoutSessions.createdAt))
      .limit(BATCH);
    after = rows.length === BATCH ? (rows.at(-1)?.createdAt ?? null) : null;
    for (const row of rows) {
      result.checked += 1;
      try {
        const outcome = await check(row, now);
        if (outcome) result[outcome] += 1;
      } catch (error) {
        // One session the provider cannot answer for must not stop the others.
        log.warn({ err: error, sessionId: row.sessionId }, "Checkout sweep: session not checked");
      }
    }
    return result;
  };

  return {
    /** One pass now (also what the timer runs). */
    sweep,
  };
}

export type CheckoutSweep = ReturnType<typeof createCheckoutSweep>;
