// A user's current subscription is their newest by the provider's creation time. Two created in
// the same second (a Stripe test clock, a quick resubscribe after the old one ended) once had no
// order at all: PostgreSQL returned either, and the screens said "inactive" for a paying fan.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createPlan } from "../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { userSubscriptions, users } from "../../db/schema/index.ts";

describe("the current subscription among rows created in the same second", () => {
  let t: TestApp;
  let admin: string;
  let planId: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await adminSession(t)).token;
    planId = (await createPlan(t, admin, { name: "Fan", price: 9.99, credits: 50 }))._id;
  });
  afterAll(() => t?.close());

  const created = new Date("2026-11-02T10:00:00.000Z");
  const subscription = (userId: string, status: "active" | "trialing" | "canceled", n: number) => ({
    userId,
    planId,
    provider: "sandbox" as const,
    providerSubscriptionId: `sub_same_second_${userId}_${n}`,
    priceMinor: 999,
    currency: "usd" as const,
    status,
    currentPeriodStart: created,
    currentPeriodEnd: new Date(Date.now() + 20 * 86_400_000),
    createdAt: created,
  });

  const shown = async (token: string, userId: string) => {
    const me = (await call(t, "GET", "/api/auth/me", { token })).json().data;
    const mine = (await call(t, "GET", "/api/subscriptions/my-subscription", { token })).json()
      .data;
    const detail = (await call(t, "GET", `/api/admin/users/${userId}`, { token: admin })).json()
      .data;
    const [row] = await t.app.database.db
      .select({ renewing: sql<boolean>`${users.subscribedUntil} = 'infinity'` })
      .from(users)
      .where(eq(users.id, userId));
    return {
      me: me.subscription.status,
      mine: mine.status,
      admin: detail.subscription?.status,
      renewing: row?.renewing,
    };
  };

  it.each([
    ["the ended one written last", ["active", "canceled"] as const],
    ["the ended one written first", ["canceled", "active"] as const],
    // A free trial is in force (decision 0083): the trigger and the screens agree.
    ["a trial, the ended one written last", ["trialing", "canceled"] as const],
    ["a trial, the ended one written first", ["canceled", "trialing"] as const],
  ])("is the one in force, whatever the order written (%s)", async (_, order) => {
    const inForce = order.find((status) => status !== "canceled");
    const fan = await signUp(t);
    for (const [n, status] of order.entries()) {
      await t.app.database.db
        .insert(userSubscriptions)
        .values(subscription(fan.user.id, status, n));
    }
    expect(await shown(fan.token, fan.user.id)).toEqual({
      me: inForce,
      mine: inForce,
      admin: inForce,
      renewing: true,
    });
  });
});
