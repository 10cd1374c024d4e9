import { makeCharge } from "./charges.ts";
import { changeBalance } from "./customers.ts";
import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import { billSubscription, invoicePayments } from "./invoices.ts";
import type { Json } from "./json.ts";
import { nextPeriodEnd } from "./periods.ts";
import { subscriptionItem } from "./subscriptions.ts";

/** The end of the period that starts at `start`, counted from the subscription's anchor. */
function periodEndAfter(subscription: Json, start: number): number {
  const recurring = (subscriptionItem(subscription).price as Json).recurring as Json;
  const anchor = Number(subscription.billing_cycle_anchor ?? start);
  return nextPeriodEnd(anchor, String(recurring.interval), Number(recurring.interval_count), start);
}

/** The invoice of the period that starts at `start`, at the item's price. */
function billNextPeriod(deps: EmulatorDeps, subscription: Json, start: number, paid: boolean) {
  const item = subscriptionItem(subscription);
  return billSubscription(deps, {
    subscription,
    amount: Number((item.price as Json).unit_amount),
    reason: "subscription_cycle",
    paid,
    periodStart: start,
    periodEnd: periodEndAfter(subscription, start),
  });
}

/** A retry that succeeds pays the invoice the failed attempts left open, as it was made. */
async function payOpenInvoice(deps: EmulatorDeps, subscription: Json, open: Json) {
  const total = Number(open.total);
  const balance = await changeBalance(deps, String(subscription.customer), (starting) =>
    starting < 0 ? Math.min(total, -starting) : 0,
  );
  const due = total - (balance.ending - balance.starting);
  const paymentIntent = deps.newId("pi");
  Object.assign(open, {
    status: "paid",
    starting_balance: balance.starting,
    ending_balance: balance.ending,
    amount_due: due,
    amount_paid: due,
    amount_remaining: 0,
    attempt_count: Number(open.attempt_count) + 1,
    next_payment_attempt: null,
    payments: invoicePayments(deps, due > 0 ? paymentIntent : null),
  });
  await save(deps, open);
  if (due > 0) await makeCharge(deps, paymentIntent, due, open.currency);
  subscription.latest_invoice = open.id;
  return open;
}

/** The invoice a failed renewal left open, if any. */
async function openInvoiceOf(deps: EmulatorDeps, subscription: Json): Promise<Json | null> {
  return subscription.open_invoice ? deps.store.get(String(subscription.open_invoice)) : null;
}

/**
 * Bills the next period: a paid invoice (subscription_cycle) and the period moved on (a
 * trialing subscription's first charge at its trial_end: it turns active). The test clock
 * moves to the new period's start. An invoice a failed renewal left open is paid instead.
 */
export async function renew(
  deps: EmulatorDeps,
  subscriptionId: string,
): Promise<{ subscription: Json; invoice: Json }> {
  const subscription = await mustGet(deps, subscriptionId, "subscription");
  const item = subscriptionItem(subscription);
  const start = Number(item.current_period_end);
  deps.clock.advanceTo(start);
  const open = await openInvoiceOf(deps, subscription);
  const invoice = open
    ? await payOpenInvoice(deps, subscription, open)
    : await billNextPeriod(deps, subscription, start, true);
  item.current_period_start = start;
  item.current_period_end = periodEndAfter(subscription, start);
  subscription.status = "active";
  subscription.open_invoice = null;
  await save(deps, subscription);
  return { subscription, invoice };
}

/**
 * A renewal whose payment fails: an open invoice and the subscription past_due, the next
 * attempt `renewalRetries.afterSeconds` later (the invoice's next_payment_attempt); each retry
 * that fails counts an attempt, and the last one leaves it unpaid with no attempt to come. The
 * first attempt is made when the period ends: the test clock moves there. The invoice bills the
 * next period (the one a later renew() moves it to).
 */
export async function failRenewal(
  deps: EmulatorDeps,
  subscriptionId: string,
): Promise<{ subscription: Json; invoice: Json }> {
  const subscription = await mustGet(deps, subscriptionId, "subscription");
  let invoice = await openInvoiceOf(deps, subscription);
  if (invoice) {
    invoice.attempt_count = Number(invoice.attempt_count) + 1;
  } else {
    const start = Number(subscriptionItem(subscription).current_period_end);
    deps.clock.advanceTo(start);
    invoice = await billNextPeriod(deps, subscription, start, false);
    subscription.open_invoice = invoice.id;
  }
  const { attempts, afterSeconds } = deps.renewalRetries;
  const last = Number(invoice.attempt_count) >= attempts;
  invoice.next_payment_attempt = last ? null : deps.clock.now() + afterSeconds;
  await save(deps, invoice);
  subscription.status = last ? "unpaid" : "past_due";
  await save(deps, subscription);
  return { subscription, invoice };
}
