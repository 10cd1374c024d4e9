import { randomBytes } from "node:crypto";
import type { SandboxStore } from "./types.ts";

type Json = Record<string, unknown>;

export const sandboxId = (prefix: string) => `${prefix}_sandbox_${randomBytes(12).toString("hex")}`;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const pick = (from: Json, keys: string[]): Json =>
  Object.fromEntries(keys.filter((key) => key in from).map((key) => [key, from[key]]));

export interface SandboxInvoiceInput {
  subscription: Json;
  /** Signed: negative is a credit to the customer's balance (a downgrade's proration). */
  totalMinor: number;
  reason: string;
  periodStart: Date;
  periodEnd: Date;
  /** false: the card was declined; the invoice stays open and the balance is not touched. */
  paid: boolean;
  attempt?: number;
  /** Reuse this invoice (a retried renewal pays the invoice its first attempt opened). */
  invoiceId?: string;
}

/**
 * The sandbox's customers (their saved test card and account credit) and invoices, as Stripe
 * keeps them: a negative invoice total goes to the customer's balance; the next paid invoice
 * uses that credit first. Balances change by compare-and-set on a version, so a renewal and a
 * plan change of one customer never lose each other's change.
 */
export function createSandboxInvoices(options: { store: SandboxStore; now: () => Date }) {
  const { store, now } = options;
  let counter = 0;

  const customer = async (customerId: string): Promise<Json> => {
    const found = await store.get(customerId);
    if (found?.object === "customer") return found;
    const created: Json = { id: customerId, object: "customer", balance: 0, version: "0" };
    await store.put(customerId, "customer", created);
    return (await store.get(customerId)) ?? created;
  };

  /**
   * Moves the balance for invoice `invoiceId` by what `decide` says (negative: more credit),
   * once: the move is recorded on the customer in the same compare-and-set, so an invoice made
   * again after a crash between the move and the invoice's own write moves nothing twice.
   */
  const moveBalance = async (
    customerId: string,
    invoiceId: string,
    decide: (balance: number) => number,
  ): Promise<{ starting: number; ending: number }> => {
    for (;;) {
      const current = await customer(customerId);
      const moves =
        (current.balance_moves as Record<string, { starting: number; ending: number }>) ?? {};
      const done = moves[invoiceId];
      if (done) return done;
      const starting = Number(current.balance ?? 0);
      const change = decide(starting);
      if (change === 0) return { starting, ending: starting };
      const version = String(current.version ?? "0");
      const moved = { starting, ending: starting + change };
      const next = {
        ...current,
        balance: moved.ending,
        balance_moves: { ...moves, [invoiceId]: moved },
        version: String(Number(version) + 1),
      };
      if (await store.transition(customerId, version, next, "version")) return moved;
    }
  };

  /**
   * A charged payment intent, kept so a refund can be checked against what was paid; one made
   * by a checkout names its session and carries its metadata, as Stripe's do.
   */
  const recordPaymentIntent = async (
    id: string,
    amountMinor: number,
    currency: unknown,
    checkout?: { sessionId: string; metadata: Record<string, string> },
  ) => {
    await store.put(id, "payment_intent", {
      id,
      object: "payment_intent",
      status: "succeeded",
      amount: amountMinor,
      currency,
      amount_refunded: 0,
      metadata: checkout?.metadata ?? {},
      checkout_session: checkout?.sessionId ?? null,
    });
  };

  return {
    customer,
    recordPaymentIntent,

    /** Remembers the card a checkout was paid with (renewals charge it). */
    async saveCard(customerId: string, cardNumber: string) {
      const current = await customer(customerId);
      await store.put(customerId, "customer", { ...current, card: cardNumber });
    },

    /** Makes (or, with `invoiceId`, finishes) an invoice; one already paid stays as it is. */
    async make(input: SandboxInvoiceInput): Promise<Json> {
      const existing = input.invoiceId ? await store.get(input.invoiceId) : null;
      const opened = existing?.object === "invoice" ? existing : null;
      if (opened?.status === "paid") return opened;
      // A retry pays the invoice as its first attempt made it, as Stripe never re-prices an open
      // invoice: the same total, plan and period, even after a plan change since.
      const totalMinor = opened ? Number(opened.total) : input.totalMinor;
      const customerId = String(input.subscription.customer);
      const id = input.invoiceId ?? sandboxId("in");
      let starting = 0;
      let ending = 0;
      if (input.paid) {
        // A credit (negative total) adds to the balance; a charge uses the credit first.
        ({ starting, ending } = await moveBalance(customerId, id, (balance) =>
          totalMinor < 0 ? totalMinor : Math.min(totalMinor, -Math.min(balance, 0)),
        ));
      }
      const applied = Math.max(0, ending - starting);
      const due = totalMinor < 0 ? 0 : totalMinor - applied;
      counter += 1;
      const made = {
        number: `SBX-${id.slice(-8).toUpperCase()}-${counter}`,
        subscription_metadata: { ...((input.subscription.metadata as Json) ?? {}) },
        currency: input.subscription.currency,
        billing_reason: input.reason,
        period_start: seconds(input.periodStart),
        period_end: seconds(input.periodEnd),
        created: seconds(now()),
      };
      const invoice: Json = {
        ...made,
        ...(opened ? pick(opened, Object.keys(made)) : {}),
        id,
        object: "invoice",
        status: input.paid ? "paid" : "open",
        customer: customerId,
        subscription: input.subscription.id,
        total: totalMinor,
        starting_balance: starting,
        ending_balance: ending,
        amount_paid: input.paid ? due : 0,
        amount_due: due,
        payment_intent: input.paid && due > 0 ? sandboxId("pi") : null,
        attempt_count: input.attempt ?? 1,
      };
      await store.put(id, "invoice", invoice);
      if (invoice.payment_intent) {
        await recordPaymentIntent(String(invoice.payment_intent), due, invoice.currency);
      }
      return invoice;
    },
  };
}

export type SandboxInvoices = ReturnType<typeof createSandboxInvoices>;
