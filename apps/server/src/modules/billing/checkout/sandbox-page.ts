import { randomUUID } from "node:crypto";
import {
  BILLING_MESSAGES,
  type CheckoutSessionView,
  type SandboxPayRequest,
} from "@twinline/contracts";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  type CheckoutSessionRow,
  checkoutSessions,
  type UserRow,
} from "../../../db/schema/index.ts";
import { HttpError } from "../../../plugins/errors.ts";
import {
  CardError,
  type SandboxPayments,
  SessionClosedError,
  sandboxId,
} from "../../../providers/payments/index.ts";
import type { CatalogueService } from "../catalogue/catalogue-service.ts";
import { recordFailedCheckout } from "../fulfilment/failed-payments.ts";
import type { Fulfilment } from "../fulfilment/fulfilment.ts";
import type { SubscriptionsReader } from "../subscriptions/subscriptions-reader.ts";
import {
  freshSession,
  ownSession,
  refuseFullBalance,
  refuseSecondPlan,
} from "./checkout-guards.ts";
import { sessionViewWithPlan } from "./session-view.ts";

/** What the sandbox's hosted page (this app's card form) works with. */
export interface SandboxPageDeps {
  db: Database;
  sandbox: SandboxPayments;
  fulfilment: Fulfilment;
  catalogue: Pick<CatalogueService, "findPlanAnyState">;
  subscriptions: SubscriptionsReader;
  /** The billing clock's time, which the sandbox dates its sessions by. */
  now: () => Date;
}

/** Card errors that are the issuer's answer; the others are the form's checks. */
const DECLINE_CODES = new Set(["card_declined", "expired_card"]);

interface PageAnswer {
  redirectUrl: string;
  data: CheckoutSessionView;
}

/**
 * A sandbox session paid at the "provider" but not fulfilled (the fulfilment failed after the
 * card was charged): delivered again, as Stripe retries a failed webhook.
 */
export async function reconcileSandbox(
  deps: SandboxPageDeps,
  row: CheckoutSessionRow,
): Promise<CheckoutSessionRow> {
  if (row.provider !== "sandbox" || row.fulfilledAt) return row;
  const session = await deps.sandbox.retrieveCheckoutSession(row.sessionId);
  if (session?.status !== "complete" || session.paymentStatus !== "paid") return row;
  await deps.fulfilment.handle(
    {
      id: sandboxId("evt"),
      type: "checkout.session.completed",
      created: Math.floor(deps.now().getTime() / 1000),
      data: { object: { id: row.sessionId, object: "checkout.session" } },
    },
    deps.sandbox,
  );
  return freshSession(deps.db, row);
}

/** The sandbox page's card form: charged, then fulfilled through the webhook's code. */
export async function sandboxPay(
  deps: SandboxPageDeps,
  user: UserRow,
  sessionId: string,
  card: SandboxPayRequest,
): Promise<PageAnswer> {
  const { db, sandbox, catalogue, now } = deps;
  const owned = await ownSession(db, user, sessionId);
  if (owned.provider !== "sandbox") throw new HttpError(404, BILLING_MESSAGES.sessionNotFound);
  const row = await reconcileSandbox(deps, owned);
  if (row.fulfilledAt) {
    // Paid already (a second click, or a retry after a failed fulfilment): the same answer.
    const view = await sessionViewWithPlan(catalogue, row, now());
    return { redirectUrl: view.successUrl, data: view };
  }
  if (row.status !== "open" || row.expiresAt < now()) {
    throw new HttpError(409, BILLING_MESSAGES.sessionClosed);
  }
  // The balance may have grown since the session was made: checked again before the charge.
  await refuseFullBalance(db, user.id, row.credits ?? 0);
  if (row.mode === "subscription") await refuseSecondPlan(deps.subscriptions, user);
  try {
    await sandbox.pay(sessionId, {
      cardNumber: card.cardNumber,
      expiry: card.expiry,
      cvc: card.cvc,
    });
  } catch (error) {
    if (error instanceof CardError) {
      // The issuer said no (not a form mistake): the attempt is a failed row (decision 0036).
      if (DECLINE_CODES.has(error.code)) {
        await db.transaction((tx) =>
          recordFailedCheckout(tx, row, {
            sourceKey: `checkout:${row.sessionId}:declined:${randomUUID()}`,
            reason: error.message,
            at: now(),
          }),
        );
      }
      throw new HttpError(402, error.message, { code: error.code });
    }
    if (error instanceof SessionClosedError) {
      throw new HttpError(409, BILLING_MESSAGES.sessionClosed);
    }
    throw error;
  }
  const view = await sessionViewWithPlan(catalogue, await freshSession(db, row), now());
  return { redirectUrl: view.successUrl, data: view };
}

/** The sandbox page's "cancel": back to the cancel URL, nothing charged. */
export async function sandboxCancel(
  deps: SandboxPageDeps,
  user: UserRow,
  sessionId: string,
): Promise<PageAnswer> {
  const { db, sandbox, catalogue, now } = deps;
  const row = await ownSession(db, user, sessionId);
  if (row.provider !== "sandbox") throw new HttpError(404, BILLING_MESSAGES.sessionNotFound);
  if (row.status === "open") {
    await sandbox.cancel(sessionId);
    await db
      .update(checkoutSessions)
      .set({ status: "canceled" })
      .where(and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.status, "expired")));
  }
  const view = await sessionViewWithPlan(catalogue, await freshSession(db, row), now());
  return { redirectUrl: view.cancelUrl, data: view };
}
