import { describe, expect, it } from "vitest";
import { CardError, checkCard, createSandboxPayments, periodEnd, prorationDue } from "./sandbox.ts";
import type { CheckoutItem, SandboxStore } from "./types.ts";

const utc = (text: string) => new Date(text);

describe("the sandbox's periods, proration and card checks", () => {
  it("ends a period by the plan's interval, clamping month ends", () => {
    expect(periodEnd(utc("2026-01-31T10:00:00Z"), { interval: "month", intervalCount: 1 })).toEqual(
      utc("2026-02-28T10:00:00Z"),
    );
    expect(periodEnd(utc("2026-01-15T00:00:00Z"), { interval: "month", intervalCount: 3 })).toEqual(
      utc("2026-04-15T00:00:00Z"),
    );
    expect(periodEnd(utc("2024-02-29T00:00:00Z"), { interval: "year", intervalCount: 1 })).toEqual(
      utc("2025-02-28T00:00:00Z"),
    );
    expect(periodEnd(utc("2026-03-01T00:00:00Z"), { interval: "week", intervalCount: 2 })).toEqual(
      utc("2026-03-15T00:00:00Z"),
    );
    expect(periodEnd(utc("2026-03-01T00:00:00Z"), { interval: "day", intervalCount: 1 })).toEqual(
      utc("2026-03-02T00:00:00Z"),
    );
  });

  it("prorates as Stripe does: new price for the unused time less the old price's unused time", () => {
    const period = {
      periodStart: utc("2026-03-01T00:00:00Z"),
      periodEnd: utc("2026-03-31T00:00:00Z"),
    };
    // Half the period left: 30.00 - 10.00 over half = 10.00.
    expect(
      prorationDue({
        ...period,
        oldAmountMinor: 1000,
        newAmountMinor: 3000,
        now: utc("2026-03-16T00:00:00Z"),
      }),
    ).toBe(1000);
    // A downgrade is a credit (negative): it goes to the customer's balance.
    expect(
      prorationDue({
        ...period,
        oldAmountMinor: 3000,
        newAmountMinor: 1000,
        now: utc("2026-03-16T00:00:00Z"),
      }),
    ).toBe(-1000);
    // At the very start, the whole difference; after the end, nothing.
    expect(
      prorationDue({
        ...period,
        oldAmountMinor: 1000,
        newAmountMinor: 3000,
        now: period.periodStart,
      }),
    ).toBe(2000);
    expect(
      prorationDue({
        ...period,
        oldAmountMinor: 1000,
        newAmountMinor: 3000,
        now: utc("2026-04-02T00:00:00Z"),
      }),
    ).toBe(0);
  });

  it("accepts 4242 4242 4242 4242 and refuses the rest in Stripe's words", () => {
    const now = utc("2026-11-22T00:00:00Z");
    expect(() =>
      checkCard({ cardNumber: "4242 4242 4242 4242", expiry: "11/26", cvc: "123" }, now),
    ).not.toThrow();
    const refused = (card: { cardNumber: string; expiry: string; cvc: string }) => {
      try {
        checkCard(card, now);
      } catch (error) {
        return error instanceof CardError ? error.message : String(error);
      }
      return "accepted";
    };
    expect(refused({ cardNumber: "4000000000000002", expiry: "12/30", cvc: "123" })).toBe(
      "Your card was declined.",
    );
    expect(refused({ cardNumber: "4242", expiry: "12/30", cvc: "123" })).toBe(
      "Your card number is incomplete.",
    );
    expect(refused({ cardNumber: "4242424242424242", expiry: "10/26", cvc: "123" })).toBe(
      "Your card has expired.",
    );
    expect(refused({ cardNumber: "4242424242424242", expiry: "13/30", cvc: "123" })).toBe(
      "Your card's expiration date is incomplete.",
    );
    expect(refused({ cardNumber: "4242424242424242", expiry: "12/2030", cvc: "1" })).toBe(
      "Your card's security code is incomplete.",
    );
  });
});

describe("a sandbox plan change is all or nothing, as Stripe's", () => {
  /** The sandbox's store in memory; `failNext` makes the next write of that object fail. */
  const memoryStore = () => {
    const objects = new Map<string, Record<string, unknown>>();
    const failing = new Set<string>();
    const store: SandboxStore & { failNext(object: string): void } = {
      failNext: (object) => failing.add(object),
      async put(id, object, data) {
        if (failing.delete(object)) throw new Error(`the process died writing ${id}`);
        objects.set(id, structuredClone({ ...data, object }));
      },
      async get(id) {
        const found = objects.get(id);
        return found ? structuredClone(found) : null;
      },
      async create(id, object, data) {
        if (objects.has(id)) return false;
        await store.put(id, object, data);
        return true;
      },
      async transition(id, from, data, field = "status") {
        if (String(objects.get(id)?.[field]) !== from) return false;
        objects.set(id, structuredClone(data));
        return true;
      },
    };
    return store;
  };

  it("a crash between the change and its invoice: the invoice is made once, the credit used once", async () => {
    const now = utc("2026-03-16T00:00:00Z");
    const store = memoryStore();
    const sandbox = createSandboxPayments({
      store,
      deliver: async () => {},
      now: () => now,
    });
    // A customer holding 10.00 of account credit, on a 10.00 plan half-way through its month.
    await store.put("cus_1", "customer", { id: "cus_1", balance: -1000, version: "0" });
    await store.put("sub_1", "subscription", {
      id: "sub_1",
      status: "active",
      version: "0",
      customer: "cus_1",
      price_id: "price_small",
      amount: 1000,
      currency: "usd",
      interval: "month",
      interval_count: 1,
      current_period_start: Date.parse("2026-03-01T00:00:00Z") / 1000,
      current_period_end: Date.parse("2026-03-31T00:00:00Z") / 1000,
      cancel_at_period_end: false,
      metadata: { planId: "small" },
      created: Date.parse("2026-03-01T00:00:00Z") / 1000,
    });
    const large: CheckoutItem = {
      name: "Large",
      description: "",
      priceId: "price_large",
      amountMinor: 3000,
      currency: "usd",
      recurring: { interval: "month", intervalCount: 1 },
    };
    store.failNext("invoice");
    await expect(
      sandbox.changeSubscriptionPrice("sub_1", large, { planId: "large" }, "key-1"),
    ).rejects.toThrow("died");
    // The change was made (one write); its invoice is made by whoever reads the change next.
    expect(await sandbox.retrieveSubscription("sub_1")).toMatchObject({
      amountMinor: 3000,
      metadata: { changeKey: "key-1" },
    });
    const invoice = await sandbox.changeInvoice("sub_1", "key-1");
    // 10.00 due for the half month left, paid from the account credit (used once, not twice).
    expect(invoice).toMatchObject({
      status: "paid",
      billingReason: "subscription_update",
      totalMinor: 1000,
      amountPaid: 0,
      creditAppliedMinor: 1000,
    });
    expect(await sandbox.changeInvoice("sub_1", "key-1")).toMatchObject({ id: invoice?.id });
    expect(await sandbox.changeInvoice("sub_1", "another key")).toBeNull();
    expect((await store.get("cus_1"))?.balance).toBe(0);
    // The same call again (the SDK's retry) answers the same change.
    await sandbox.changeSubscriptionPrice("sub_1", large, { planId: "large" }, "key-1");
    expect((await store.get("cus_1"))?.balance).toBe(0);
  });
});
