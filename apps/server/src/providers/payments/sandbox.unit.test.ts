import { describe, expect, it } from "vitest";
import { CardError, checkCard, periodEnd, prorationDue } from "./sandbox.ts";

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
