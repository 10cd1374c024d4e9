import { makeCharge } from "./charges.ts";
import { nextNumber } from "./counters.ts";
import { changeBalance } from "./customers.ts";
import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import type { Json } from "./json.ts";
import { StripeObjects } from "./store.ts";

/** An invoice's payments list: one paid payment intent, or none. */
export const invoicePayments = (deps: EmulatorDeps, paymentIntent: string | null) => ({
  object: "list",
  data: paymentIntent
    ? [
        {
          id: deps.newId("inpay"),
          object: "invoice_payment",
          payment: { type: "payment_intent", payment_intent: paymentIntent },
          status: "paid",
        },
      ]
    : [],
  has_more: false,
});

/**
 * An invoice as Stripe finalizes it: `amount` is the signed total; a negative one goes to the
 * customer's balance; a paid positive one uses the balance's credit first and the card is
 * charged what is left.
 */
export async function makeInvoice(
  deps: EmulatorDeps,
  input: {
    subscription: Json;
    amount: number;
    reason: string;
    paid: boolean;
    periodStart: number;
    periodEnd: number;
  },
): Promise<Json> {
  const number = await nextNumber(deps, "invoice");
  const paymentIntent = deps.newId("pi");
  const { subscription } = input;
  const balance = await changeBalance(deps, String(subscription.customer), (starting) => {
    if (input.amount < 0) return input.amount;
    if (input.paid && starting < 0) return Math.min(input.amount, -starting);
    return 0;
  });
  const applied = input.amount < 0 ? 0 : balance.ending - balance.starting;
  const due = Math.max(0, input.amount) - applied;
  const paid = input.paid && due > 0;
  const invoice: Json = {
    id: deps.newId("in"),
    object: "invoice",
    number: `FAKE-${String(number).padStart(4, "0")}`,
    status: input.paid ? "paid" : "open",
    customer: subscription.customer,
    currency: subscription.currency,
    total: input.amount,
    starting_balance: balance.starting,
    ending_balance: balance.ending,
    amount_due: due,
    amount_paid: input.paid ? due : 0,
    amount_remaining: input.paid ? 0 : due,
    attempt_count: 1,
    billing_reason: input.reason,
    created: deps.clock.now(),
    period_start: input.periodStart,
    period_end: input.periodEnd,
    parent: {
      type: "subscription_details",
      subscription_details: {
        subscription: subscription.id,
        // Stripe snapshots the subscription's metadata on the invoice.
        metadata: { ...((subscription.metadata as Json) ?? {}) },
      },
    },
    lines: {
      object: "list",
      data: [
        {
          id: deps.newId("il"),
          object: "line_item",
          amount: input.amount,
          currency: subscription.currency,
          period: { start: input.periodStart, end: input.periodEnd },
        },
      ],
      has_more: false,
    },
    payments: invoicePayments(deps, paid ? paymentIntent : null),
  };
  await save(deps, invoice);
  if (paid) await makeCharge(deps, paymentIntent, due, subscription.currency);
  return invoice;
}

/**
 * An invoice of the subscription (makeInvoice), made its latest_invoice; the caller saves the
 * subscription with its other changes.
 */
export async function billSubscription(
  deps: EmulatorDeps,
  input: Parameters<typeof makeInvoice>[1],
): Promise<Json> {
  const invoice = await makeInvoice(deps, input);
  input.subscription.latest_invoice = invoice.id;
  return invoice;
}

/** The subscription an invoice bills. */
export const subscriptionOfInvoice = (invoice: Json) =>
  ((invoice.parent as Json | null)?.subscription_details as Json | undefined)?.subscription;

/** Invoices newest first, as Stripe lists them; `subscription` filters. */
export async function listInvoices(deps: EmulatorDeps, query: Json) {
  const all = await deps.store.list(StripeObjects.invoice);
  return all
    .filter(
      (invoice) => !query.subscription || subscriptionOfInvoice(invoice) === query.subscription,
    )
    .reverse();
}

export const retrieveInvoice = (deps: EmulatorDeps, invoiceId: string) =>
  mustGet(deps, invoiceId, "invoice");
