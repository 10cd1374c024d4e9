import {
  adminCreditTransactionsResponseSchema,
  adminRevenueResponseSchema,
  adminSubscriptionHistoryResponseSchema,
  adminSubscriptionTransactionsResponseSchema,
} from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { payments, subscriptionEvents, subscriptionPlans } from "../../../db/schema/index.ts";

describe("admin transaction lists: filters, sorts, pages, date ranges", () => {
  let t: TestApp;
  let admin: string;
  let alice: { id: string; email: string };
  let bob: { id: string; email: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await adminSession(t)).token;
    const a = await signUp(t, { name: "Alice Example", email: "alice-lists@example.com" });
    const b = await signUp(t, { name: "Bob Example", email: "bob-lists@example.com" });
    alice = { id: a.user.id, email: a.user.email };
    bob = { id: b.user.id, email: b.user.email };
    const db = t.app.database.db;
    // 12 credit purchases over 12 days of March 2026, and 3 subscription payments.
    await db.insert(payments).values(
      Array.from({ length: 12 }, (_, i) => ({
        kind: "credits" as const,
        userId: i % 2 === 0 ? alice.id : bob.id,
        status: (i % 3 === 0 ? "failed" : "success") as "failed" | "success",
        amountMinor: 100 * (i + 1),
        currency: "usd" as const,
        credits: 10 * (i + 1),
        itemName: `Pack ${i + 1}`,
        provider: "sandbox" as const,
        stripePaymentId: `pi_${String(i).padStart(2, "0")}`,
        sourceKey: `seed:credits:${i}`,
        transactionDate: new Date(Date.UTC(2026, 2, i + 1, 12)),
      })),
    );
    const [plan] = await db
      .insert(subscriptionPlans)
      .values({ name: "Seed Plan", priceMinor: 900 })
      .returning();
    await db.insert(payments).values(
      [0, 1, 2].map((i) => ({
        kind: "subscription" as const,
        userId: alice.id,
        status: "success" as const,
        amountMinor: 900,
        currency: "usd" as const,
        planId: plan?.id,
        itemName: "Seed Plan",
        provider: "sandbox" as const,
        invoiceId: `in_${i}`,
        sourceKey: `seed:subscription:${i}`,
        transactionDate: new Date(Date.UTC(2026, 2, 20 + i)),
      })),
    );
    await db.insert(subscriptionEvents).values(
      (["created", "renewed", "payment_failed", "canceled"] as const).map((eventType, i) => ({
        userId: i < 2 ? alice.id : bob.id,
        planId: plan?.id,
        planName: "Seed Plan",
        eventType,
        status: eventType === "payment_failed" ? ("past_due" as const) : ("active" as const),
        currency: "usd" as const,
        amountMinor: 900,
        autoRenew: eventType !== "canceled",
        sourceKey: `seed:event:${i}`,
        timestamp: new Date(Date.UTC(2026, 2, 20 + i)),
      })),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const credits = async (query: Record<string, string>) => {
    const response = await call(t, "GET", "/api/admin/credit-transactions", {
      token: admin,
      query,
    });
    expect(response.statusCode, response.body).toBe(200);
    return adminCreditTransactionsResponseSchema.parse(response.json());
  };

  it("pages newest first by default, with the user populated", async () => {
    const first = await credits({});
    expect(first.pagination).toEqual({ total: 12, page: 1, limit: 10, pages: 2 });
    expect(first.data[0]).toMatchObject({
      credits: 120,
      amount: 12,
      metadata: { packageName: "Pack 12" },
      userId: { _id: bob.id, name: "Bob Example", email: bob.email, profileImage: null },
    });
    const second = await credits({ page: "2" });
    expect(second.data.map((row) => row.credits)).toEqual([20, 10]);
  });

  it("filters by status, user (id, e-mail or name) and an inclusive date range", async () => {
    expect((await credits({ status: "failed" })).data.map((r) => r.credits)).toEqual([
      100, 70, 40, 10,
    ]);
    expect((await credits({ status: "all" })).pagination.total).toBe(12);
    expect((await credits({ userId: "alice-lists" })).pagination.total).toBe(6);
    expect((await credits({ userId: "BOB EXAMPLE" })).pagination.total).toBe(6);
    expect((await credits({ userId: alice.id })).pagination.total).toBe(6);
    expect((await credits({ userId: "nobody-matches" })).pagination.total).toBe(0);
    const range = await credits({ startDate: "2026-03-03", endDate: "2026-03-05" });
    expect(range.data.map((r) => r.credits)).toEqual([50, 40, 30]);
    const iso = await credits({
      startDate: "2026-03-03T00:00:00.000Z",
      endDate: "2026-03-04T12:00:00.000Z",
    });
    expect(iso.data.map((r) => r.credits)).toEqual([40, 30]);
  });

  it("sorts by every column it offers, both ways", async () => {
    const byAmount = await credits({ sortBy: "amount", sortOrder: "1", limit: "3" });
    expect(byAmount.data.map((r) => r.amount)).toEqual([1, 2, 3]);
    const byCredits = await credits({ sortBy: "credits", sortOrder: "-1", limit: "2" });
    expect(byCredits.data.map((r) => r.credits)).toEqual([120, 110]);
    const byUser = await credits({ sortBy: "user", sortOrder: "asc", limit: "1" });
    expect(byUser.data[0]?.userId?.name).toBe("Alice Example");
    const byId = await credits({ sortBy: "stripePaymentId", sortOrder: "desc", limit: "1" });
    expect(byId.data[0]?.stripePaymentId).toBe("pi_11");
    const byPackage = await credits({ sortBy: "packageName", sortOrder: "1", limit: "2" });
    expect(byPackage.data.map((r) => r.metadata.packageName)).toEqual(["Pack 1", "Pack 10"]);
    const byStatus = await credits({ sortBy: "status", sortOrder: "1", limit: "1" });
    expect(byStatus.data[0]?.status).toBe("success");
  });

  it("answers 400, never 500, to bad filters", async () => {
    const badQueries: Array<Record<string, string>> = [
      { startDate: "2026-13-01" },
      { startDate: "2026-02-30" },
      { endDate: "99999-01-01" },
      { endDate: "0000-01-01" },
      { startDate: "yesterday" },
      { userId: "a\u0000b" },
      { sortBy: "password" },
      { sortOrder: "2" },
      { status: "chargeback" },
      { page: "0" },
      { limit: "1000" },
    ];
    for (const query of badQueries) {
      for (const path of [
        "/api/admin/credit-transactions",
        "/api/admin/subscription-transactions",
        "/api/admin/subscription-history",
      ]) {
        const response = await call(t, "GET", path, { token: admin, query });
        expect(response.statusCode, `${path} ${JSON.stringify(query)} ${response.body}`).toBe(400);
      }
    }
    const encoded = await t.app.inject({
      method: "GET",
      url: "/api/admin/credit-transactions?userId=%00",
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(encoded.statusCode).toBe(400);
  });

  it("lists subscription payments and history events with their filters", async () => {
    const response = await call(t, "GET", "/api/admin/subscription-transactions", {
      token: admin,
      query: { startDate: "2026-03-21" },
    });
    const subs = adminSubscriptionTransactionsResponseSchema.parse(response.json());
    expect(subs.data.map((r) => r.invoiceId)).toEqual(["in_2", "in_1"]);
    expect(subs.data[0]).toMatchObject({ planName: "Seed Plan", planId: { name: "Seed Plan" } });

    const history = async (query: Record<string, string>) =>
      adminSubscriptionHistoryResponseSchema.parse(
        (await call(t, "GET", "/api/admin/subscription-history", { token: admin, query })).json(),
      );
    expect((await history({})).data.map((e) => e.eventType)).toEqual([
      "canceled",
      "payment_failed",
      "renewed",
      "created",
    ]);
    expect((await history({ eventType: "renewed" })).data).toHaveLength(1);
    expect((await history({ status: "past_due" })).data[0]?.eventType).toBe("payment_failed");
    expect((await history({ userId: bob.email })).pagination.total).toBe(2);
    const oldest = await history({ sortBy: "timestamp", sortOrder: "1", limit: "1" });
    expect(oldest.data[0]).toMatchObject({ eventType: "created", autoRenew: true });
    const one = await call(t, "GET", `/api/admin/subscription-history/${oldest.data[0]?._id}`, {
      token: admin,
    });
    expect(one.json().data._id).toBe(oldest.data[0]?._id);
    const missing = await call(
      t,
      "GET",
      "/api/admin/subscription-history/00000000-0000-4000-8000-000000000000",
      { token: admin },
    );
    expect(missing.statusCode).toBe(404);
  });

  it("answers one user's transactions and the revenue figures", async () => {
    const mine = await call(t, "GET", `/api/admin/users/${alice.id}/transactions`, {
      token: admin,
    });
    expect(mine.json().data).toHaveLength(6);
    const subs = await call(t, "GET", `/api/admin/users/${alice.id}/subscription-transactions`, {
      token: admin,
    });
    expect(subs.json().data).toHaveLength(3);
    const revenue = async (kind: string) =>
      adminRevenueResponseSchema.parse(
        (await call(t, "GET", "/api/admin/revenue", { token: admin, query: { kind } })).json(),
      ).data;
    // Successful credits: 12 rows less the failed 1, 4, 7, 10 (x 100 minor); subscriptions 3 x 9.
    const creditsTotal = [2, 3, 5, 6, 8, 9, 11, 12].reduce((sum, n) => sum + n, 0);
    expect((await revenue("all")).totalRevenue.value).toBeCloseTo(creditsTotal + 27, 2);
    expect((await revenue("credits")).totalRevenue.value).toBeCloseTo(creditsTotal, 2);
    expect((await revenue("subscriptions")).totalRevenue.value).toBeCloseTo(27, 2);
    const detail = (await call(t, "GET", `/api/admin/users/${alice.id}`, { token: admin })).json();
    // Alice's successful purchases (3, 5, 9, 11) and her 3 subscription payments (27).
    expect(detail.data.totalSpent).toBeCloseTo(28 + 27, 2);
  });
});
