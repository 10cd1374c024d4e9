import { randomUUID } from "node:crypto";
import {
  BILLING_MESSAGES,
  CONSENT_VERSIONS,
  planChangeResultSchema,
  type SubscriptionPlan,
} from "@twinline/contracts";
import { and, asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { payments, type UserSubscriptionRow } from "../../src/db/schema/index.ts";
import { isInForce } from "../../src/modules/users/subscription-state.ts";
import { call, messageOf } from "../accounts.ts";
import { balanceOf } from "../billing.ts";
import type { TestApp } from "../create-test-app.ts";
import type { LifecycleDriver, LifecycleUser } from "./drivers.ts";

export interface StepContext {
  t: TestApp;
  driver: LifecycleDriver;
  user: LifecycleUser;
  /** The plans on sale, cheapest first. */
  plans: SubscriptionPlan[];
  /** The user's newest subscription row before the step. */
  row: UserSubscriptionRow | undefined;
  /** A random number for the step's own choices (which plan, which event). */
  choice: number;
  /** An admin's token, for the money tools (refunds, credit adjustments). */
  admin: string;
}

/**
 * The kinds of step a random lifecycle is made of. Each does what a user, the provider or the
 * clock would do, asserts what the answer must be, and leaves the invariants to the caller
 * (invariants.ts). Add a kind here and the property test draws it too.
 */
export const STEP_KINDS: Record<string, (step: StepContext) => Promise<void>> = {
  subscribe: async ({ t, driver, user, plans, row, choice }) => {
    const plan = pick(plans, choice);
    if (row && ["active", "past_due", "trialing"].includes(row.status)) {
      const refused = await call(t, "POST", "/api/subscriptions/create-checkout", {
        token: user.token,
        body: { planId: plan._id, consentVersion: CONSENT_VERSIONS.plan },
      });
      expect(refused.statusCode).toBe(409);
      return;
    }
    await driver.subscribe(user, plan._id, choice);
  },

  upgrade: (step) => changePlan(step, "upgrade"),
  downgrade: (step) => changePlan(step, "downgrade"),

  cancel: async ({ t, driver, user, row }) => {
    const answer = await call(t, "POST", "/api/subscriptions/cancel", { token: user.token });
    if (!row || !isInForce(row)) {
      expect(answer.statusCode, answer.body).toBe(400);
      return;
    }
    if (row.cancelAtPeriodEnd) {
      expect(messageOf(answer)).toBe(BILLING_MESSAGES.alreadyCanceling);
      return;
    }
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().subscription).toMatchObject({ status: "canceled", autoRenew: false });
    await driver.afterApiChange(user, row);
  },

  /** Choosing the plan again while it is set to cancel: it renews again, nothing charged. */
  resume: async ({ t, driver, user, row }) => {
    if (!row || !isInForce(row) || !row.cancelAtPeriodEnd) return;
    const answer = await call(t, "POST", "/api/subscriptions/upgrade", {
      token: user.token,
      body: { planId: row.planId },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const result = planChangeResultSchema.parse(answer.json()).subscription;
    expect(result).toMatchObject({
      status: row.status === "trialing" ? "trialing" : "active",
      cancelAtPeriodEnd: false,
    });
    expect(result.proratedAmount ?? 0).toBe(0);
    await driver.afterApiChange(user, row);
  },

  renew: async ({ driver, user, row }) => {
    if (row && isInForce(row)) await driver.renew(user, row);
  },

  renewalDeclined: async ({ driver, user, row }) => {
    if (!row || !isInForce(row)) return;
    // Set to cancel, the period simply ends: no charge to decline.
    if (row.cancelAtPeriodEnd) await driver.renew(user, row);
    else await driver.declineRenewal(user, row);
  },

  /** The provider delivers an event again, with the same id. */
  replayed: async ({ driver, choice }) => {
    const event = driver.events.length ? driver.events[choice % driver.events.length] : null;
    if (event) await driver.redeliver(event, false);
  },

  /** A stale event arrives late, as a new event (out of order). */
  reordered: async ({ driver, choice }) => {
    const event = driver.events.length ? driver.events[choice % driver.events.length] : null;
    if (event) await driver.redeliver(event, true);
  },

  /**
   * The operator refunds one of the user's subscription payments, in whole or in part, twice with
   * the same request id (a double click): given back once, never more than was paid, the credits
   * it granted taken back in proportion as far as the user still has them (decision 0050).
   */
  refund: async ({ t, user, choice, admin }) => {
    const refundable = (
      await t.app.database.db
        .select()
        .from(payments)
        .where(
          and(
            eq(payments.userId, user.id),
            eq(payments.kind, "subscription"),
            eq(payments.status, "success"),
          ),
        )
        .orderBy(asc(payments.transactionDate), asc(payments.id))
    ).filter((row) => row.amountMinor - row.refundedMinor > 0);
    if (refundable.length === 0) return;
    const payment = pick(refundable, choice);
    const left = payment.amountMinor - payment.refundedMinor;
    // Half the time the rest in full, else a part of it (at least a cent).
    const partMinor = choice % 2 === 0 ? null : Math.max(1, Math.floor(left / 3));
    const body = {
      reason: "Lifecycle property test",
      requestId: randomUUID(),
      ...(partMinor === null ? {} : { amount: partMinor / 100 }),
    };
    const path = `/api/admin/payments/${payment.id}/refund`;
    const answers = [
      await call(t, "POST", path, { token: admin, body }),
      await call(t, "POST", path, { token: admin, body }),
    ];
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const [after] = await t.app.database.db
      .select()
      .from(payments)
      .where(eq(payments.id, payment.id));
    const given = partMinor ?? left;
    expect(after?.refundedMinor).toBe(payment.refundedMinor + given);
    expect(after?.status).toBe(given === left ? "refunded" : "success");
  },

  /** The operator grants or takes back credits; never below zero (decision 0050). */
  adjustment: async ({ t, user, choice, admin }) => {
    const before = await balanceOf(t, user.token);
    // A third of the time more than the user has: refused, nothing changed.
    const delta = choice % 3 === 0 ? -(before + 1) : choice % 3 === 1 ? 25 : -Math.min(before, 10);
    if (delta === 0) return;
    const answer = await call(t, "POST", `/api/admin/users/${user.id}/credits`, {
      token: admin,
      body: { delta, reason: "Lifecycle property test", requestId: randomUUID() },
    });
    if (before + delta < 0) {
      expect(answer.statusCode, answer.body).toBe(400);
      expect(await balanceOf(t, user.token)).toBe(before);
      return;
    }
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await balanceOf(t, user.token)).toBe(before + delta);
  },

  /** Three plan changes at once (double clicks, two tabs): one goes through, charged once. */
  parallelUpgrades: async ({ t, driver, user, plans, row, choice }) => {
    if (!row || !isInForce(row)) return;
    const others = plans.filter((plan) => plan._id !== row.planId);
    const target = pick(others, choice);
    const answers = await Promise.all(
      [0, 1, 2].map(() =>
        call(t, "POST", "/api/subscriptions/upgrade", {
          token: user.token,
          body: { planId: target._id },
        }),
      ),
    );
    // At most one changes the plan; a declining card refuses each that reaches it (402).
    const bodies = answers.map((answer) => answer.body).join("\n");
    if (row.status === "trialing") {
      // A trial is of its plan (decision 0083): each is refused, nothing changes.
      for (const answer of answers) {
        expect(answer.statusCode, bodies).toBe(409);
        expect(messageOf(answer)).toBe(BILLING_MESSAGES.changeInTrial);
      }
      return;
    }
    const changed = answers.filter((answer) => answer.statusCode === 200);
    const declined = answers.filter((answer) => answer.statusCode === 402);
    expect(changed.length + Math.min(declined.length, 1), bodies).toBe(1);
    if (changed.length === 1) expect(declined, bodies).toHaveLength(0);
    for (const answer of declined) expect(messageOf(answer)).toBe(BILLING_MESSAGES.cardDeclined);
    for (const answer of answers.filter((each) => ![200, 402].includes(each.statusCode))) {
      expect([409, 400]).toContain(answer.statusCode);
      expect([BILLING_MESSAGES.changeInProgress, BILLING_MESSAGES.samePlan]).toContain(
        messageOf(answer),
      );
    }
    await driver.afterApiChange(user, row);
  },
};

function pick<T>(items: T[], choice: number): T {
  const item = items[choice % items.length];
  if (item === undefined) throw new Error("Nothing to pick from");
  return item;
}

async function changePlan(
  { t, driver, user, plans, row, choice }: StepContext,
  direction: "upgrade" | "downgrade",
) {
  if (!row || !isInForce(row)) {
    const refused = await call(t, "POST", "/api/subscriptions/upgrade", {
      token: user.token,
      body: { planId: pick(plans, choice)._id },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(messageOf(refused)).toBe(BILLING_MESSAGES.noActiveSubscription);
    return;
  }
  if (row.status === "trialing") {
    // A trial is of its plan (decision 0083): no change to another until it ends. (Its own plan
    // is a resume when set to cancel: the resume step's.)
    const others = plans.filter((plan) => plan._id !== row.planId);
    if (others.length === 0) return;
    const refused = await call(t, "POST", "/api/subscriptions/upgrade", {
      token: user.token,
      body: { planId: pick(others, choice)._id },
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(messageOf(refused)).toBe(BILLING_MESSAGES.changeInTrial);
    return;
  }
  const targets = plans.filter((plan) => {
    const priceMinor = Math.round(plan.price * 100);
    return direction === "upgrade" ? priceMinor > row.priceMinor : priceMinor < row.priceMinor;
  });
  if (targets.length === 0) return;
  const target = pick(targets, choice);
  const current = plans.find((plan) => plan._id === row.planId);
  const before = await balanceOf(t, user.token);
  const answer = await call(t, "POST", "/api/subscriptions/upgrade", {
    token: user.token,
    body: { planId: target._id },
  });
  if (answer.statusCode === 402) {
    // The saved card declines (a renewal was declined before): nothing changed, nothing granted.
    expect(messageOf(answer)).toBe(BILLING_MESSAGES.cardDeclined);
    expect(direction).toBe("upgrade");
    expect(await balanceOf(t, user.token)).toBe(before);
    return;
  }
  expect(answer.statusCode, answer.body).toBe(200);
  const result = planChangeResultSchema.parse(answer.json()).subscription;
  expect(result).toMatchObject({ change: direction, status: "active", plan: { _id: target._id } });
  // Charged now (>= 0, less any account credit) or credited to the next invoice (< 0).
  if (direction === "upgrade") expect(result.proratedAmount ?? 0).toBeGreaterThanOrEqual(0);
  else expect(result.proratedAmount ?? 0).toBeLessThanOrEqual(0);
  await driver.afterApiChange(user, row);
  // An upgrade grants at most the plans' credit difference (nothing when the period already
  // had the higher plan: the invariants bound each period); a downgrade takes none back.
  const difference = Math.max(0, target.credits - (current?.credits ?? target.credits));
  const after = await balanceOf(t, user.token);
  expect(after).toBeGreaterThanOrEqual(before);
  expect(after).toBeLessThanOrEqual(before + difference);
}
