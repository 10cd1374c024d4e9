import { makeCharge } from "./charges.ts";
import { changeBalance } from "./customers.ts";
import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import { invoicePayments, makeInvoice } from "./invoices.ts";
import { type Json, newId } from "./json.ts";
import { nextPeriodEnd } from "./periods.ts";
import { subscriptionItem } from "./subscriptions.ts";

/** The end of the period that starts at `start`, counted from the subscription's anchor. */
function periodEndAfter(subscription: Json, start: number): number {
  const recurring = (subscriptionItem(subscription).price as Json).recurring as Json;
  const anchor = Number(subscription.billing_cycle_anchor ?? start);
  return nextPeriodEnd(anchor, String(recurring.interval), Number(recurring.interval_count), start);
}

/** A retry that succeeds pays the invoice the failed attempts left open, as it was made. */
async function payOpenInvoice(deps: EmulatorDeps, subscription: Json, open: Json) {
  const total = Number(open.total);
  const balance = await changeBalance(deps, String(subscription.customer), (starting) =>
    starting < 0 ? Math.min(total, -starting) : 0,
  );
  const due = total - (balance.ending - balance.starting);
  const paymentIntent = newId("pi");
  Object.assign(open, {
    status: "paid",
    starting_balance: balance.starting,
    ending_balance: balance.ending,
    amount_due: due,
    amount_paid: due,
    amount_remaining: 0,
    attempt_count: Number(open.attempt_count) + 1,
    payments: invoicePayments(due > 0 ? paymentIntent : null),
  });
  await save(deps, open);
  if (due > 0) await makeCharge(deps, paymentIntent, due, open.currency);
  return open;
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
  const end = periodEndAfter(subscription, start);
  deps.clock.advanceTo(start);
  item.current_period_start = start;
  item.current_period_end = end;
  subscription.status = "active";
  const open = subscription.open_invoice
    ? await deps.store.get(String(subscription.open_invoice))
    : null;
  let invoice: Json;
  if (open) {
    invoice = await payOpenInvoice(deps, subscription, open);
    subscription.open_invoice = null;
  } else {
    invoice = await makeInvoice(deps, {
      subscription,
      amount: Number((item.price as Json).unit_amount),
      reason: "subscription_cycle",
      paid: true,
      periodStart: start,
      periodEnd: end,
    });
  }
  subscription.latest_invoice = invoice.id;
  await save(deps, subscription);
  return { subscription, invoice };
}

/**
 * A renewal whose payment fails: an open invoice and the subscription past_due; failing again
 * (Stripe's retries) leaves it unpaid. The attempt is made when the period ends: the test clock
 * moves there. The invoice bills the next period (the one a later renew() moves it to).
 */
export async function failRenewal(
  deps: EmulatorDeps,
  subscriptionId: string,
): Promise<{ subscription: Json; invoice: Json }> {
  const subscription = await mustGet(deps, subscriptionId, "subscription");
  const open = subscription.open_invoice
    ? await deps.store.get(String(subscription.open_invoice))
    : null;
  if (open) {
    open.attempt_count = Number(open.attempt_count) + 1;
    await save(deps, open);
    subscription.status = "unpaid";
    await save(deps, subscription);
    return { subscription, invoice: open };
  }
  const item = subscriptionItem(subscription);
  subscription.status = "past_due";
  const start = Number(item.current_period_end);
  deps.clock.advanceTo(start);
  const invoice = await makeInvoice(deps, {
    subscription,
    amount: Number((item.price as Json).unit_amount),
    reason: "subscription_cycle",
    paid: false,
    periodStart: start,
    periodEnd: periodEndAfter(subscription, start),
  });
  subscription.latest_invoice = invoice.id;
  subscription.open_invoice = invoice.id;
  await save(deps, subscription);
  return { subscription, invoice };
}
