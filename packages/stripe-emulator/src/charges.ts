import { type EmulatorDeps, save } from "./deps.ts";
import { notFound } from "./errors.ts";
import type { Json } from "./json.ts";
import { StripeObjects } from "./store.ts";

/** The charge a payment intent makes when it succeeds (one per paid payment intent). */
export async function makeCharge(
  deps: EmulatorDeps,
  paymentIntent: string,
  amount: number,
  currency: unknown,
): Promise<Json> {
  const made: Json = {
    id: deps.newId("ch"),
    object: "charge",
    payment_intent: paymentIntent,
    amount,
    amount_refunded: 0,
    currency,
    paid: true,
    refunded: false,
    disputed: false,
    status: "succeeded",
    created: deps.clock.now(),
  };
  await save(deps, made);
  return made;
}

/** The successful charge of a payment intent (a failed attempt's charge is never it). */
export async function paidChargeOf(deps: EmulatorDeps, paymentIntentId: string) {
  const all = await deps.store.list(StripeObjects.charge);
  return all.find((each) => each.payment_intent === paymentIntentId && each.paid === true);
}

export async function mustPaidChargeOf(deps: EmulatorDeps, paymentIntentId: string) {
  const made = await paidChargeOf(deps, paymentIntentId);
  if (!made) throw new Error(`No charge for ${paymentIntentId}`);
  return made;
}

/** The charge as the API answers it (refunds expanded as a list). */
export async function chargeView(deps: EmulatorDeps, made: Json): Promise<Json> {
  const refunds = (await deps.store.list(StripeObjects.refund)).filter(
    (refund) => refund.charge === made.id,
  );
  return { ...made, refunds: { object: "list", data: refunds, has_more: false } };
}

export async function retrieveCharge(deps: EmulatorDeps, chargeId: string) {
  const made = await deps.store.get(chargeId);
  if (made?.object !== "charge") throw notFound("charge", chargeId);
  return chargeView(deps, made);
}

/** A failed attempt's charge: retrievable, never refundable. */
export async function makeFailedCharge(deps: EmulatorDeps, intent: Json, error: Json) {
  const chargeId = deps.newId("ch");
  await save(deps, {
    id: chargeId,
    object: "charge",
    payment_intent: intent.id,
    amount: intent.amount,
    amount_refunded: 0,
    currency: intent.currency,
    paid: false,
    refunded: false,
    disputed: false,
    status: "failed",
    failure_code: error.code ?? null,
    failure_message: error.message ?? null,
    created: deps.clock.now(),
  });
  return chargeId;
}
