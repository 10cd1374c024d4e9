import { makeCharge } from "./charges.ts";
import { customerOf } from "./customers.ts";
import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import type { Json } from "./json.ts";
import { failIntentAttempt, intentOfSession } from "./payment-intents.ts";
import { redeemPromotionCode } from "./promotions.ts";
import { startSubscription } from "./subscriptions.ts";

/** A test control asked of a session that cannot take it (Stripe would never do it). */
export class SessionNotOpenError extends Error {}

/**
 * Moves an open session to `changes` (compare-and-set on its status: of two payers of one
 * session, exactly one wins; the other gets SessionNotOpenError).
 */
async function closeSession(deps: EmulatorDeps, sessionId: string, changes: Json): Promise<Json> {
  const session = await mustGet(deps, sessionId, "checkout.session");
  Object.assign(session, { customer: session.customer ?? deps.newId("cus") }, changes);
  if (!(await deps.store.transition(sessionId, "open", session))) {
    throw new SessionNotOpenError(`Session ${sessionId} is not open`);
  }
  return session;
}

/** Pays an open checkout session (and, in subscription mode, starts the subscription). */
export async function completeCheckout(
  deps: EmulatorDeps,
  sessionId: string,
): Promise<{ session: Json; subscription?: Json; invoice?: Json }> {
  const session = await closeSession(deps, sessionId, {
    status: "complete",
    payment_status: "paid",
  });
  await customerOf(deps, String(session.customer));
  for (const each of (session.discounts as Json[] | undefined) ?? []) {
    await redeemPromotionCode(deps, String(each.promotion_code));
  }
  if (session.mode === "subscription") {
    const started = await startSubscription(deps, session);
    session.subscription = started.subscription.id;
    await save(deps, session);
    return { session, ...started };
  }
  const intent = await intentOfSession(deps, session);
  const made = await makeCharge(
    deps,
    String(intent.id),
    Number(session.amount_total),
    session.currency,
  );
  await save(deps, {
    ...intent,
    status: "succeeded",
    amount_received: session.amount_total,
    latest_charge: made.id,
    last_payment_error: null,
  });
  await save(deps, session);
  return { session };
}

async function mustOpenPaymentSession(deps: EmulatorDeps, sessionId: string, what: string) {
  const session = await mustGet(deps, sessionId, "checkout.session");
  if (session.mode !== "payment" || session.status !== "open") {
    throw new SessionNotOpenError(`Session ${sessionId} takes no ${what}`);
  }
  return session;
}

/**
 * A payment attempt at an open checkout session (payment mode) that fails, as Checkout makes
 * one: a declined card by default (`error` overrides its fields); the session stays open.
 */
export async function failCheckoutAttempt(
  deps: EmulatorDeps,
  sessionId: string,
  error: Json = {},
): Promise<Json> {
  const session = await mustOpenPaymentSession(deps, sessionId, "payment attempt");
  const declined: Json = {
    type: "card_error",
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Your card was declined.",
    doc_url: "https://stripe.com/docs/error-codes/card-declined",
    payment_method_type: "card",
    ...error,
  };
  const intent = await intentOfSession(deps, session);
  await save(deps, session);
  return failIntentAttempt(deps, intent, declined, true);
}

/**
 * A delayed payment (a bank debit) submitted at checkout that fails days later: the session
 * complete and unpaid, its payment intent requires_payment_method with an error that names no
 * charge.
 */
export async function failDelayedPayment(
  deps: EmulatorDeps,
  sessionId: string,
): Promise<{ session: Json; paymentIntent: Json }> {
  await mustOpenPaymentSession(deps, sessionId, "payment");
  const session = await closeSession(deps, sessionId, {
    status: "complete",
    payment_status: "unpaid",
  });
  const intent = await intentOfSession(deps, session);
  await save(deps, session);
  const paymentIntent = await failIntentAttempt(
    deps,
    intent,
    {
      type: "invalid_request_error",
      code: "insufficient_funds",
      message: "The customer's account has insufficient funds to cover this payment.",
      payment_method_type: "sepa_debit",
    },
    false,
  );
  return { session, paymentIntent };
}

/** Expires a checkout session. */
export async function expireCheckout(deps: EmulatorDeps, sessionId: string): Promise<Json> {
  const session = await mustGet(deps, sessionId, "checkout.session");
  session.status = "expired";
  await save(deps, session);
  return session;
}
