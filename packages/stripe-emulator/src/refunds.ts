import { chargeView, mustPaidChargeOf } from "./charges.ts";
import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import { invalidRequest, notFound } from "./errors.ts";
import { idempotent } from "./idempotency.ts";
import type { Json } from "./json.ts";

/**
 * Refunds `amount` of a charge. The charge's amount_refunded is compared-and-set, so two
 * refunds made at once (two instances) never refund more than was charged.
 */
async function refundCharge(
  deps: EmulatorDeps,
  chargeId: string,
  amount: number | undefined,
  metadata: Json,
): Promise<Json> {
  for (;;) {
    const made = await mustGet(deps, chargeId, "charge");
    const left = Number(made.amount) - Number(made.amount_refunded);
    const refunded = amount ?? left;
    if (!Number.isInteger(refunded) || refunded <= 0 || refunded > left) {
      throw left === 0
        ? invalidRequest(`Charge ${made.id} has already been refunded.`, "charge_already_refunded")
        : invalidRequest(
            `Refund amount (${refunded}) is greater than unrefunded amount on charge (${left})`,
            "amount_too_large",
          );
    }
    const amountRefunded = Number(made.amount_refunded) + refunded;
    const updated = {
      ...made,
      amount_refunded: amountRefunded,
      refunded: amountRefunded === made.amount,
    };
    const won = await deps.store.transition(
      chargeId,
      String(made.amount_refunded),
      updated,
      "amount_refunded",
    );
    if (!won) continue;
    const refund: Json = {
      id: deps.newId("re"),
      object: "refund",
      amount: refunded,
      charge: made.id,
      payment_intent: made.payment_intent,
      currency: made.currency,
      status: "succeeded",
      reason: "requested_by_customer",
      metadata,
      created: deps.clock.now(),
    };
    await save(deps, refund);
    return refund;
  }
}

/**
 * POST /v1/refunds: of a charge or of a payment intent's charge. A retry with the same
 * Idempotency-Key answers the first refund and refunds nothing again.
 */
export async function createRefund(
  deps: EmulatorDeps,
  body: Json,
  idempotencyKey: string | null,
): Promise<Json> {
  const recordId = idempotencyKey ? `idem_refund_${idempotencyKey}` : null;
  return idempotent(deps, recordId, async () => {
    let chargeId: string | undefined;
    if (body.charge) {
      const made = await deps.store.get(String(body.charge));
      if (made?.object !== "charge" || made.paid !== true) {
        throw notFound("charge", String(body.charge));
      }
      chargeId = String(made.id);
    } else {
      const paymentIntentId = String(body.payment_intent);
      chargeId = (await mustPaidChargeOf(deps, paymentIntentId).catch(() => undefined))?.id as
        | string
        | undefined;
      if (!chargeId) throw notFound("payment_intent", paymentIntentId);
    }
    const amount = body.amount === undefined ? undefined : Number(body.amount);
    return refundCharge(deps, chargeId, amount, (body.metadata as Json) ?? {});
  });
}

export const retrieveRefund = (deps: EmulatorDeps, refundId: string) =>
  mustGet(deps, refundId, "refund");

/** A refund made in Stripe's dashboard (no metadata): the charge, refreshed, and the refund. */
export async function refundInDashboard(
  deps: EmulatorDeps,
  paymentIntentId: string,
  amount?: number,
): Promise<{ charge: Json; refund: Json }> {
  const made = await mustPaidChargeOf(deps, paymentIntentId);
  const refund = await refundCharge(deps, String(made.id), amount, {});
  return { charge: await chargeView(deps, await mustGet(deps, String(made.id), "charge")), refund };
}
