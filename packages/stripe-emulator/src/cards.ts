import { customerOf } from "./customers.ts";
import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import type { Json } from "./json.ts";
import { failRenewal, renew } from "./renewals.ts";

/**
 * Stripe's test cards as the emulator knows them: only this one pays; any other number saved
 * for renewals is declined when charged (at Stripe an unknown number is refused outright).
 */
export const TEST_CARD_THAT_PAYS = "4242424242424242";

/** The number a saved card was given, kept beside Stripe's fields (Stripe never shows it). */
const NUMBER_FIELD = "emulator_card_number";

/**
 * The customer of a subscription saves another card for its renewals (Stripe's billing portal):
 * a card payment method, made the customer's default for invoices.
 */
export async function updateCard(
  deps: EmulatorDeps,
  subscriptionId: string,
  cardNumber: string,
): Promise<Json> {
  const subscription = await mustGet(deps, subscriptionId, "subscription");
  const customer = await customerOf(deps, String(subscription.customer));
  const paymentMethod: Json = {
    id: deps.newId("pm"),
    object: "payment_method",
    type: "card",
    customer: customer.id,
    card: { brand: "visa", last4: cardNumber.slice(-4) },
    created: deps.clock.now(),
    [NUMBER_FIELD]: cardNumber,
  };
  await save(deps, paymentMethod);
  await save(deps, {
    ...customer,
    invoice_settings: {
      ...((customer.invoice_settings as Json | undefined) ?? {}),
      default_payment_method: paymentMethod.id,
    },
  });
  return paymentMethod;
}

/** Whether the customer's default card pays (no card saved: the one it paid with, which did). */
async function defaultCardPays(deps: EmulatorDeps, customerId: string): Promise<boolean> {
  const customer = await customerOf(deps, customerId);
  const methodId = (customer.invoice_settings as Json | undefined)?.default_payment_method;
  if (!methodId) return true;
  const method = await mustGet(deps, String(methodId), "payment_method");
  return method[NUMBER_FIELD] === TEST_CARD_THAT_PAYS;
}

/**
 * Charges a renewal on the customer's default card: renew() when it pays, failRenewal() when
 * it is declined (a retry of an open invoice, the same).
 */
export async function chargeRenewal(
  deps: EmulatorDeps,
  subscriptionId: string,
): Promise<{ subscription: Json; invoice: Json; paid: boolean }> {
  const subscription = await mustGet(deps, subscriptionId, "subscription");
  const paid = await defaultCardPays(deps, String(subscription.customer));
  const done = paid ? await renew(deps, subscriptionId) : await failRenewal(deps, subscriptionId);
  return { ...done, paid };
}
