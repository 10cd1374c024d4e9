import { randomBytes } from "node:crypto";
import { CONSENT_VERSIONS, checkoutResponseSchema, SANDBOX_CARDS } from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { and, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import {
  sandboxObjects,
  type UserSubscriptionRow,
  userSubscriptions,
} from "../../src/db/schema/index.ts";
import type { PaymentEvent } from "../../src/providers/payments/index.ts";
import { call } from "../accounts.ts";
import type { TestApp } from "../create-test-app.ts";
import type { ManualClock } from "../manual-clock.ts";
import { deliver } from "../stripe-webhooks.ts";

type Json = Record<string, unknown>;

export interface LifecycleUser {
  id: string;
  email: string;
  token: string;
}

/** An invoice as the provider has it (Stripe's field names; the sandbox keeps the same). */
export interface ProviderInvoice {
  id: string;
  status: string;
  total: number;
  amount_paid: number;
  attempt_count: number;
  billing_reason: string;
  /** The sandbox's: the billing period the invoice is for. */
  period_end: number;
  /** Stripe's: the period billed is its line's (an invoice's own `period_end` is the last one). */
  lines?: { data?: { period?: { end?: number } }[] };
  /** Where the provider keeps them differs; read by `invoicePeriodOf`. */
  subscription?: string | null;
  subscription_metadata?: Record<string, string>;
  parent?: { subscription_details?: { subscription?: string; metadata?: Record<string, string> } };
}

/**
 * The subscription, the billing period (its end: a period's invoices share it) and the plan an
 * invoice was made for, as the provider recorded them.
 */
export function invoicePeriodOf(invoice: ProviderInvoice): {
  subscription: string;
  periodEnd: number;
  planId: string | null;
} {
  const details = invoice.parent?.subscription_details;
  return {
    subscription: String(details?.subscription ?? invoice.subscription ?? ""),
    periodEnd: invoice.lines?.data?.[0]?.period?.end ?? invoice.period_end,
    planId: (details?.metadata ?? invoice.subscription_metadata)?.planId ?? null,
  };
}

/**
 * What differs between the sandbox and Stripe in a subscription's life: how a checkout is paid,
 * how a period renews (or its renewal is declined), how events arrive and are replayed, and
 * where the provider keeps invoices and account credit. Plan changes, cancel and resume go
 * through the app's API for both.
 */
export interface LifecycleDriver {
  readonly kind: "sandbox" | "stripe";
  /** Checkout and payment with the good card; `order` shuffles the events (Stripe). */
  subscribe(user: LifecycleUser, planId: string, order: number): Promise<void>;
  /** The period ends and is paid (or, set to cancel, the subscription ends). */
  renew(user: LifecycleUser, row: UserSubscriptionRow): Promise<void>;
  /** The period ends and the card is declined (again: unpaid). */
  declineRenewal(user: LifecycleUser, row: UserSubscriptionRow): Promise<void>;
  /** What the provider sends after a change made through the API (Stripe's webhooks). */
  afterApiChange(user: LifecycleUser, row: UserSubscriptionRow): Promise<void>;
  /** Every event delivered so far, oldest first. */
  readonly events: PaymentEvent[];
  /** Delivers an event again: the same id (a replay) or a fresh one (a late, stale copy). */
  redeliver(event: PaymentEvent, freshId: boolean): Promise<void>;
  invoices(userId: string): Promise<ProviderInvoice[]>;
  /** The customer's balance at the provider, minor units (negative: account credit). */
  balance(userId: string): Promise<number>;
}

const eventId = () => `evt_${randomBytes(12).toString("hex")}`;

const customerIds = async (t: TestApp, userId: string) =>
  (
    await t.app.database.db
      .selectDistinct({ id: userSubscriptions.providerCustomerId })
      .from(userSubscriptions)
      .where(eq(userSubscriptions.userId, userId))
  )
    .map((row) => row.id)
    .filter((id): id is string => id !== null);

async function checkoutPlan(t: TestApp, user: LifecycleUser, planId: string) {
  const response = await call(t, "POST", "/api/subscriptions/create-checkout", {
    token: user.token,
    body: { planId, consentVersion: CONSENT_VERSIONS.plan },
  });
  expect(response.statusCode, response.body).toBe(200);
  return checkoutResponseSchema.parse(response.json()).sessionId;
}

/** The sandbox, its events recorded as they reach the fulfilment; time is the test's clock. */
export function sandboxDriver(t: TestApp, clock: ManualClock): LifecycleDriver {
  const { billing } = t.app;
  const events: PaymentEvent[] = [];
  const handle = billing.fulfilment.handle.bind(billing.fulfilment);
  billing.fulfilment.handle = async (event, source) => {
    events.push(event);
    return handle(event, source);
  };
  const db = t.app.database.db;
  const objectOf = async (id: string) =>
    (await db.select().from(sandboxObjects).where(eq(sandboxObjects.id, id)))[0]?.data ?? null;

  /** Moves the clock to when the sandbox next tries to renew, then runs the sweep. */
  const sweepAtDue = async (row: UserSubscriptionRow) => {
    const data = (await objectOf(row.providerSubscriptionId)) as Json;
    const due =
      data.status === "past_due"
        ? Number(data.next_payment_attempt) * 1000
        : Number(data.current_period_end) * 1000;
    await clock.advance(Math.max(0, due - clock.now()) + 1000);
    await billing.renewals.sweep();
  };

  return {
    kind: "sandbox",
    events,
    async subscribe(user, planId) {
      const sessionId = await checkoutPlan(t, user, planId);
      const paid = await call(t, "POST", `/api/payments/sandbox/sessions/${sessionId}/pay`, {
        token: user.token,
        body: { cardNumber: SANDBOX_CARDS.success, expiry: "12/40", cvc: "123" },
      });
      expect(paid.statusCode, paid.body).toBe(200);
    },
    async renew(_user, row) {
      await billing.sandbox.updateCard(row.providerSubscriptionId, SANDBOX_CARDS.success);
      await sweepAtDue(row);
    },
    async declineRenewal(_user, row) {
      await billing.sandbox.updateCard(row.providerSubscriptionId, SANDBOX_CARDS.declined);
      await sweepAtDue(row);
    },
    async afterApiChange() {
      // The sandbox delivered its events while answering.
    },
    async redeliver(event, freshId) {
      await billing.fulfilment.handle(
        freshId ? { ...event, id: eventId() } : event,
        billing.sandbox,
      );
    },
    async invoices(userId) {
      const customer = `cus_sandbox_${userId.replaceAll("-", "")}`;
      const rows = await db
        .select({ data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(
          and(
            eq(sandboxObjects.object, "invoice"),
            sql`${sandboxObjects.data}->>'customer' = ${customer}`,
          ),
        );
      return rows.map((row) => row.data as unknown as ProviderInvoice);
    },
    async balance(userId) {
      const customer = await objectOf(`cus_sandbox_${userId.replaceAll("-", "")}`);
      return Number(customer?.balance ?? 0);
    },
  };
}

/** Stripe through the real SDK against the local fake; the test sends Stripe's webhooks. */
export function stripeDriver(t: TestApp, fake: FakeStripe): LifecycleDriver {
  const events: PaymentEvent[] = [];
  const lastInvoice = new Map<string, unknown>();
  const send = async (event: Json) => {
    events.push(event as unknown as PaymentEvent);
    const response = await deliver(t, event);
    expect(response.statusCode, response.body).toBe(200);
  };
  const subscription = (row: UserSubscriptionRow) => {
    const found = fake.subscriptions.get(row.providerSubscriptionId);
    if (!found) throw new Error(`No fake subscription ${row.providerSubscriptionId}`);
    return found;
  };
  const copy = (object: Json) => structuredClone(object);

  return {
    kind: "stripe",
    events,
    async subscribe(user, planId, order) {
      const sessionId = await checkoutPlan(t, user, planId);
      const done = await fake.completeCheckout(sessionId);
      const batch = [
        fake.event("checkout.session.completed", copy(done.session)),
        fake.event("customer.subscription.created", copy(done.subscription as Json)),
        fake.event("invoice.paid", copy(done.invoice as Json)),
      ];
      // Webhooks come in any order.
      const shift = order % batch.length;
      const ordered = [...batch.slice(shift), ...batch.slice(0, shift)];
      if (order % 2 === 1) ordered.reverse();
      for (const event of ordered) await send(event);
      lastInvoice.set(
        String((done.subscription as Json).id),
        (done.subscription as Json).latest_invoice,
      );
    },
    async renew(_user, row) {
      const current = subscription(row);
      if (current.cancel_at_period_end === true) {
        await send(
          fake.event(
            "customer.subscription.deleted",
            copy(await fake.endSubscription(row.providerSubscriptionId)),
          ),
        );
        return;
      }
      const renewed = await fake.renew(row.providerSubscriptionId);
      await send(fake.event("customer.subscription.updated", copy(renewed.subscription)));
      await send(fake.event("invoice.paid", copy(renewed.invoice)));
      lastInvoice.set(row.providerSubscriptionId, renewed.invoice.id);
    },
    async declineRenewal(_user, row) {
      const failed = await fake.failRenewal(row.providerSubscriptionId);
      await send(fake.event("customer.subscription.updated", copy(failed.subscription)));
      await send(fake.event("invoice.payment_failed", copy(failed.invoice)));
      lastInvoice.set(row.providerSubscriptionId, failed.invoice.id);
    },
    async afterApiChange(_user, row) {
      const current = subscription(row);
      await send(fake.event("customer.subscription.updated", copy(current)));
      const latest = current.latest_invoice;
      if (latest && lastInvoice.get(row.providerSubscriptionId) !== latest) {
        lastInvoice.set(row.providerSubscriptionId, latest);
        const invoice = fake.invoices.get(String(latest));
        if (invoice) await send(fake.event("invoice.paid", copy(invoice)));
      }
    },
    async redeliver(event, freshId) {
      const response = await deliver(t, freshId ? { ...event, id: eventId() } : event);
      expect(response.statusCode, response.body).toBe(200);
    },
    async invoices(userId) {
      const customers = new Set(await customerIds(t, userId));
      return [...fake.invoices.values()]
        .filter((invoice) => customers.has(String(invoice.customer)))
        .map((invoice) => invoice as unknown as ProviderInvoice);
    },
    async balance(userId) {
      let sum = 0;
      for (const id of await customerIds(t, userId)) {
        sum += Number(fake.customers.get(id)?.balance ?? 0);
      }
      return sum;
    },
  };
}
