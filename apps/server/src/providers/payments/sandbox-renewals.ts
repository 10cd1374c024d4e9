import type { SandboxInvoiceInput, SandboxInvoices } from "./sandbox-invoices.ts";
import { sandboxId } from "./sandbox-invoices.ts";
import type { PaymentEvent, Recurring, SandboxStore } from "./types.ts";

type Json = Record<string, unknown>;

/** What one renewal check did. */
export type RenewalOutcome =
  | "not_due"
  | "renewed"
  | "past_due"
  | "unpaid"
  | "ended"
  | "redelivered"
  | "none";

/** A declined renewal is tried again a day later (by the sandbox's clock)... */
export const RENEWAL_RETRY_MS = 24 * 60 * 60 * 1000;
/** ...and the second decline leaves the subscription unpaid (Stripe's retries, shortened). */
export const RENEWAL_ATTEMPTS = 2;

export interface SandboxRenewalsDeps {
  store: SandboxStore;
  invoices: SandboxInvoices;
  deliver: (event: PaymentEvent) => Promise<void>;
  event: (type: string, object: Json) => PaymentEvent;
  now: () => Date;
  /** Compare-and-set on the subscription's version; false: someone else changed it first. */
  saveSubscription: (data: Json) => Promise<boolean>;
  periodEnd: (start: Date, recurring: Recurring) => Date;
  /** Whether the saved card pays (the sandbox's test cards). */
  cardPays: (cardNumber: unknown) => boolean;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const fromSeconds = (value: unknown) => new Date(Number(value) * 1000);

/**
 * The sandbox's renewals (docs/decisions/0035): at the period end a subscription set to cancel
 * ends; any other moves to its next period and is charged on the saved card, the customer's
 * account credit used first. A decline leaves the invoice open and the subscription past_due,
 * retried a day later; the last decline leaves it unpaid. Every step is a compare-and-set on the subscription, so two sweeps
 * renew once; the invoice a renewal will make is written into the subscription first, so a
 * crash in between is finished (and its events delivered) by the next sweep.
 */
export function createSandboxRenewals(deps: SandboxRenewalsDeps) {
  const { store, invoices, deliver, event, now } = deps;

  const deliverLatest = async (data: Json) => {
    const pending = data.pending_invoice as SandboxInvoiceInput | null | undefined;
    // Stored as JSON: its dates come back as strings.
    if (pending) {
      await invoices.make({
        ...pending,
        subscription: data,
        periodStart: new Date(pending.periodStart),
        periodEnd: new Date(pending.periodEnd),
      });
    }
    // The invoice first: once the subscription's new period is recorded the sweep no longer
    // finds it due, so an invoice delivered after it would be lost to a crash in between. The
    // other way round, a crash leaves the old period recorded and the next sweep redelivers both
    // (the invoice is recorded once: its id is the payment's key).
    const latest = data.latest_invoice ? await store.get(String(data.latest_invoice)) : null;
    if (latest?.object === "invoice") {
      await deliver(
        event(latest.status === "paid" ? "invoice.paid" : "invoice.payment_failed", latest),
      );
    }
    const type =
      data.status === "canceled"
        ? "customer.subscription.deleted"
        : "customer.subscription.updated";
    await deliver(event(type, data));
  };

  const renewOnce = async (
    data: Json,
    known: { periodEnd: Date; status: string },
  ): Promise<RenewalOutcome | "retry"> => {
    const end = fromSeconds(data.current_period_end);
    if (end.getTime() !== known.periodEnd.getTime() || data.status !== known.status) {
      await deliverLatest(data);
      return "redelivered";
    }
    // A trial (decision 0083) renews as an active subscription: its end is the first charge.
    if (data.status !== "active" && data.status !== "past_due" && data.status !== "trialing") {
      return "none";
    }
    const at = now();
    const retrying = data.status === "past_due";
    if (retrying ? at < fromSeconds(data.next_payment_attempt) : at < end) return "not_due";
    if (data.cancel_at_period_end === true) {
      Object.assign(data, { status: "canceled", ended_at: seconds(at) });
      if (!(await deps.saveSubscription(data))) return "retry";
      await deliver(event("customer.subscription.deleted", data));
      return "ended";
    }
    const customer = await invoices.customer(String(data.customer));
    const pays = deps.cardPays(customer.card);
    const attempt = Number(data.renewal_attempts ?? 0) + 1;
    // As Stripe: the period moves on at the renewal, paid or not; a retry pays the invoice the
    // first attempt opened, for the period it opened it for.
    const start = retrying ? fromSeconds(data.current_period_start) : end;
    const nextEnd = retrying
      ? end
      : deps.periodEnd(end, {
          interval: data.interval as Recurring["interval"],
          intervalCount: Number(data.interval_count),
        });
    const invoiceId = String(data.open_invoice ?? sandboxId("in"));
    const input: SandboxInvoiceInput = {
      subscription: data,
      totalMinor: Number(data.amount),
      reason: "subscription_cycle",
      periodStart: start,
      periodEnd: nextEnd,
      paid: pays,
      attempt,
      invoiceId,
    };
    Object.assign(data, {
      current_period_start: seconds(start),
      current_period_end: seconds(nextEnd),
    });
    if (pays) {
      Object.assign(data, {
        status: "active",
        renewal_attempts: 0,
        open_invoice: null,
        next_payment_attempt: null,
      });
    } else {
      Object.assign(data, {
        status: attempt >= RENEWAL_ATTEMPTS ? "unpaid" : "past_due",
        renewal_attempts: attempt,
        open_invoice: invoiceId,
        next_payment_attempt: seconds(new Date(at.getTime() + RENEWAL_RETRY_MS)),
      });
    }
    Object.assign(data, {
      latest_invoice: invoiceId,
      pending_invoice: { ...input, subscription: null },
    });
    if (!(await deps.saveSubscription(data))) return "retry";
    await deliverLatest(data);
    return pays ? "renewed" : (data.status as "past_due" | "unpaid");
  };

  return {
    async renewDue(
      subscriptionId: string,
      known: { periodEnd: Date; status: string },
    ): Promise<RenewalOutcome> {
      for (;;) {
        const data = await store.get(subscriptionId);
        if (data?.object !== "subscription") return "none";
        const outcome = await renewOnce(data, known);
        if (outcome !== "retry") return outcome;
      }
    },
  };
}
