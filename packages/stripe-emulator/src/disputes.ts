import { mustPaidChargeOf } from "./charges.ts";
import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import type { Json } from "./json.ts";

/** A dispute opened by the card holder's bank on a payment. */
export async function openDispute(
  deps: EmulatorDeps,
  paymentIntentId: string,
  amount?: number,
): Promise<Json> {
  const made = await mustPaidChargeOf(deps, paymentIntentId);
  await save(deps, { ...made, disputed: true });
  const dispute: Json = {
    id: deps.newId("dp"),
    object: "dispute",
    amount: amount ?? made.amount,
    charge: made.id,
    payment_intent: paymentIntentId,
    currency: made.currency,
    reason: "fraudulent",
    status: "needs_response",
    created: deps.clock.now(),
  };
  await save(deps, dispute);
  return dispute;
}

export const retrieveDispute = (deps: EmulatorDeps, disputeId: string) =>
  mustGet(deps, disputeId, "dispute");
