import { describe, expect, it } from "vitest";
import type { UserSubscriptionRow } from "../../db/schema/index.ts";
import {
  isInForce,
  isOpenSubscription,
  subscriptionStatusOf,
  toSubscriptionView,
} from "./subscription-state.ts";

const now = new Date("2026-03-10T00:00:00.000Z");
const row = (patch: Partial<UserSubscriptionRow>): UserSubscriptionRow => ({
  id: "s1",
  userId: "u1",
  planId: "p1",
  provider: "sandbox",
  providerSubscriptionId: "sub_1",
  providerCustomerId: null,
  priceId: null,
  priceMinor: 999,
  currency: "usd",
  status: "active",
  currentPeriodStart: new Date("2026-03-01T00:00:00.000Z"),
  currentPeriodEnd: new Date("2026-04-01T00:00:00.000Z"),
  cancelAtPeriodEnd: false,
  canceledAt: null,
  trialEnd: null,
  planChangeKey: null,
  planChangeStartedAt: null,
  createdAt: now,
  updatedAt: now,
  ...patch,
});

describe("the one subscription state", () => {
  it.each([
    [{}, "active", true],
    [{ status: "past_due" as const }, "active", true],
    [{ cancelAtPeriodEnd: true }, "canceled", true],
    [
      { cancelAtPeriodEnd: true, currentPeriodEnd: new Date("2026-03-09T00:00:00.000Z") },
      "inactive",
      false,
    ],
    // A free trial is in force (decision 0083); canceled in it, it ends at the trial's end.
    [{ status: "trialing" as const }, "trialing", true],
    [{ status: "trialing" as const, cancelAtPeriodEnd: true }, "canceled", true],
    [
      {
        status: "trialing" as const,
        cancelAtPeriodEnd: true,
        currentPeriodEnd: new Date("2026-03-09T00:00:00.000Z"),
      },
      "inactive",
      false,
    ],
    [{ status: "unpaid" as const }, "inactive", false],
    [{ status: "canceled" as const, cancelAtPeriodEnd: true }, "inactive", false],
    [{ status: "incomplete" as const }, "inactive", false],
  ])("%o is %s (in force: %s)", (patch, status, inForce) => {
    expect(subscriptionStatusOf(row(patch), now)).toBe(status);
    expect(isInForce(row(patch), now)).toBe(inForce);
  });

  it("is open while the provider renews or retries it, its period's end aside; in force only while open and not past a cancellation's end", () => {
    const ended = { cancelAtPeriodEnd: true, currentPeriodEnd: now };
    expect(isOpenSubscription(row({}))).toBe(true);
    expect(isOpenSubscription(row({ status: "past_due" }))).toBe(true);
    expect(isOpenSubscription(row({ status: "trialing" }))).toBe(true);
    // At the very end of a period set to cancel: no longer in force, still open until the
    // provider reports the end, so no second plan is sold meanwhile.
    expect(isInForce(row(ended), now)).toBe(false);
    expect(isOpenSubscription(row(ended))).toBe(true);
    expect(isInForce(row({ ...ended, currentPeriodEnd: new Date(now.getTime() + 1) }), now)).toBe(
      true,
    );
    for (const status of ["canceled", "unpaid", "incomplete"] as const) {
      expect(isOpenSubscription(row({ status }))).toBe(false);
    }
  });

  it("keeps the plan of a canceling subscription and names weekly and daily plans' periods", () => {
    const view = toSubscriptionView(
      {
        subscription: row({ cancelAtPeriodEnd: true }),
        plan: { name: "Fan", interval: "week", intervalCount: 1 },
      },
      now,
    );
    expect(view).toMatchObject({
      status: "canceled",
      planName: "Fan",
      autoRenew: false,
      cancelAtPeriodEnd: true,
      plan: { name: "Fan", price: 9.99, duration: 0, interval: "week", intervalCount: 1 },
    });
  });

  it("shows a trial as Trialing until its end, renewing into its first charge", () => {
    const view = toSubscriptionView(
      {
        subscription: row({ status: "trialing", trialEnd: new Date("2026-04-01T00:00:00.000Z") }),
        plan: { name: "Fan", interval: "month", intervalCount: 1 },
      },
      now,
    );
    expect(view).toMatchObject({
      status: "trialing",
      autoRenew: true,
      currentPeriodEnd: "2026-04-01T00:00:00.000Z",
    });
  });

  it("carries the subscription's own price and currency: a euro plan is not shown in dollars", () => {
    const view = toSubscriptionView(
      {
        subscription: row({ priceMinor: 1499, currency: "eur" }),
        plan: { name: "Euro", interval: "month", intervalCount: 1 },
      },
      now,
    );
    expect(view.plan).toMatchObject({ price: 14.99, currency: "eur", duration: 1 });
  });
});
