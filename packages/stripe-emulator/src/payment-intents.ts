import { makeFailedCharge } from "./charges.ts";
import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import type { Json } from "./json.ts";

/**
 * The session's payment intent, made at its first attempt (a paid one is never reused). Sets
 * the session's payment_intent; the caller saves the session.
 */
export async function intentOfSession(deps: EmulatorDeps, session: Json): Promise<Json> {
  const current = session.payment_intent
    ? await deps.store.get(String(session.payment_intent))
    : null;
  if (current && current.status !== "succeeded") return current;
  const intent: Json = {
    id: deps.newId("pi"),
    object: "payment_intent",
    amount: session.amount_total,
    amount_received: 0,
    currency: session.currency,
    status: "requires_payment_method",
    capture_method: "automatic_async",
    confirmation_method: "automatic",
    payment_method_types: ["card"],
    metadata: { ...((session.payment_intent_metadata as Json) ?? {}) },
    latest_charge: null,
    last_payment_error: null,
    livemode: false,
    created: deps.clock.now(),
  };
  await save(deps, intent);
  session.payment_intent = intent.id;
  return intent;
}

/**
 * The intent's attempt failed with `error`: back to requires_payment_method, with a failed
 * charge when the attempt made one (cards). Answers a copy as payment_intent.payment_failed
 * carries it.
 */
export async function failIntentAttempt(
  deps: EmulatorDeps,
  intent: Json,
  error: Json,
  withCharge: boolean,
): Promise<Json> {
  const chargeId = withCharge ? await makeFailedCharge(deps, intent, error) : null;
  Object.assign(intent, {
    status: "requires_payment_method",
    latest_charge: chargeId ?? intent.latest_charge,
    last_payment_error: { ...error, ...(chargeId ? { charge: chargeId } : {}) },
  });
  await save(deps, intent);
  return structuredClone(intent);
}

export const retrievePaymentIntent = (deps: EmulatorDeps, paymentIntentId: string) =>
  mustGet(deps, paymentIntentId, "payment_intent");
