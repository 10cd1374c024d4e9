import {
  adminDashboardFullResponseSchema,
  adminDashboardSeriesResponseSchema,
  userAnalyticsResponseSchema,
  userDashboardMetricsResponseSchema,
} from "@twinline/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import {
  chatMessages,
  conversations,
  payments,
  subscriptionPlans,
  userSubscriptions,
  users,
  voiceCalls,
} from "../../db/schema/index.ts";
import { applyCreditMovement } from "../credits/ledger.ts";
import { CHAT_MESSAGE_ALLOWANCE_SECONDS } from "./repository.ts";

// The fixed clock of every figure: the 15th of March 2026, 10:00 UTC.
const NOW = new Date("2026-03-15T10:00:00Z");

let t: TestApp;
let admin: Awaited<ReturnType<typeof adminSession>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminSession(t);
});
afterAll(() => t?.close());
afterEach(() => {
  vi.useRealTimers();
});

function fixClock() {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
}

async function setCreatedAt(userId: string, at: string) {
  await t.app.database.db.execute(
    sql`update ${users} set created_at = ${at}::timestamptz where id = ${userId}`,
  );
}

/** A conversation of `userId` with messages at the given times (user, then ai, alternating). */
async function seedMessages(userId: string, times: string[]) {
  const db = t.app.database.db;
  const [conversation] = await db
    .insert(conversations)
    .values({ userId, title: "Seeded", startedAt: new Date(times[0] ?? NOW) })
    .returning();
  if (!conversation) throw new Error("no conversation");
  await db.insert(chatMessages).values(
    times.map((at, i) => ({
      conversationId: conversation.id,
      userId,
      sender: i % 2 === 0 ? ("user" as const) : ("ai" as const),
      content: `message ${i}`,
      createdAt: new Date(at),
    })),
  );
}

/** A finished call of `seconds` that started at `at`. */
async function seedCall(on: TestApp, userId: string, at: string, seconds: number) {
  const startedAt = new Date(at);
  await on.app.database.db.insert(voiceCalls).values({
    userId,
    startedAt,
    endedAt: new Date(startedAt.getTime() + seconds * 1000),
    durationSeconds: seconds,
    minutesCharged: Math.ceil(seconds / 60),
    creditsPerMinute: 5,
    creditsConsumed: Math.ceil(seconds / 60) * 5,
    endReason: "hangup",
  });
}

let paymentCounter = 0;
/** A payment of `cents` at `at`. */
async function seedPayment(
  on: TestApp,
  userId: string,
  at: string,
  cents: number,
  patch: Partial<typeof payments.$inferInsert> = {},
) {
  paymentCounter += 1;
  await on.app.database.db.insert(payments).values({
    kind: "credits",
    userId,
    status: "success",
    amountMinor: cents,
    currency: "usd",
    credits: 100,
    itemName: "Starter",
    provider: "sandbox",
    sourceKey: `test:payment:${paymentCounter}`,
    transactionDate: new Date(at),
    ...patch,
  });
}

async function spend(userId: string, amount: number, at: string, key: string) {
  const db = t.app.database.db;
  await applyCreditMovement(db, { userId, kind: "call_minute", amount: -amount, sourceKey: key });
  await db.execute(
    sql`update credit_ledger set created_at = ${at}::timestamptz where source_key = ${key}`,
  );
}

describe("GET /api/admin/dashboard/metrics", () => {
  it("counts users (not admins) by UTC day and month against a fixed clock", async () => {
    const t2 = await createTestApp();
    try {
      await adminSession(t2);
      const times = [
        "2026-03-15T00:00:00Z", // today
        "2026-03-14T23:59:59Z", // yesterday (and this month)
        "2026-03-01T00:00:00Z", // this month
        "2026-02-28T23:00:00Z", // last month
        "2026-02-01T00:00:00Z", // last month
        "2026-01-31T23:59:59Z", // before
      ];
      for (const at of times) {
        const { user } = await signUp(t2);
        await t2.app.database.db.execute(
          sql`update ${users} set created_at = ${at}::timestamptz where id = ${user.id}`,
        );
      }
      // Two of the six users called: a conversion of 33.3 %.
      const callers = await t2.app.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.role, "user"))
        .limit(2);
      const [first, second] = callers.map((row) => row.id);
      if (!first || !second) throw new Error("no users");
      await seedCall(t2, first, "2026-03-10T10:00:00Z", 90);
      await seedCall(t2, second, "2026-03-11T10:00:00Z", 30);
      await seedCall(t2, second, "2026-03-12T10:00:00Z", 30);
      const admin2 = await adminSession(t2);
      fixClock();
      const response = await call(t2, "GET", "/api/admin/dashboard/metrics", {
        token: admin2.token,
      });
      expect(response.statusCode).toBe(200);
      const { data } = adminDashboardFullResponseSchema.parse(response.json());
      expect(data).toMatchObject({
        totalUsers: { value: 6 },
        todayUsers: { value: 1 },
        yesterdayUsers: { value: 1 },
        thisMonthUsers: { value: 3 },
        lastMonthUsers: { value: 2 },
        conversionRate: { value: 33.3 },
      });
    } finally {
      await t2.close();
    }
  });

  it("is admin-only", async () => {
    const { token } = await signUp(t);
    const asUser = await call(t, "GET", "/api/admin/dashboard/metrics", { token });
    expect(asUser.statusCode).toBe(403);
    const anonymous = await call(t, "GET", "/api/admin/user-analytics");
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("revenue, paid users and recent purchases", () => {
  it("sums successful USD payments by UTC period, counts current subscribers, lists recent purchases", async () => {
    const t4 = await createTestApp();
    try {
      const admin4 = await adminSession(t4);
      const a = await signUp(t4);
      const b = await signUp(t4);
      const c = await signUp(t4);
      const d = await signUp(t4);
      const e = await signUp(t4);
      const f = await signUp(t4);
      await seedPayment(t4, a.user.id, "2026-03-15T01:00:00Z", 999); // today
      await seedPayment(t4, a.user.id, "2026-03-14T23:59:59Z", 1000, { credits: 250 }); // yesterday
      await seedPayment(t4, b.user.id, "2026-03-02T00:00:00Z", 2000, { kind: "subscription" });
      await seedPayment(t4, b.user.id, "2026-02-28T23:59:59Z", 500_000); // last month
      await seedPayment(t4, b.user.id, "2026-01-10T00:00:00Z", 100); // before: total only
      // Not revenue: failed, pending. Another currency: beside the dollars, never added to them.
      await seedPayment(t4, c.user.id, "2026-03-15T02:00:00Z", 7777, { status: "failed" });
      await seedPayment(t4, c.user.id, "2026-03-15T02:00:00Z", 8888, { status: "pending" });
      await seedPayment(t4, c.user.id, "2026-03-15T02:00:00Z", 9999, { currency: "eur" });
      await seedPayment(t4, c.user.id, "2026-02-15T02:00:00Z", 50_000, { currency: "inr" });

      const [plan] = await t4.app.database.db
        .insert(subscriptionPlans)
        .values({ name: "Gold", priceMinor: 2000 })
        .returning();
      if (!plan) throw new Error("no plan");
      const subscription = (
        userId: string,
        status: "active" | "canceled",
        end: string,
        created: string,
        cancelAtPeriodEnd = false,
      ) => ({
        userId,
        planId: plan.id,
        provider: "sandbox" as const,
        providerSubscriptionId: `sub_test_${userId}_${created}`,
        priceMinor: 2000,
        currency: "usd" as const,
        status,
        currentPeriodStart: new Date("2026-03-01T00:00:00Z"),
        currentPeriodEnd: new Date(end),
        cancelAtPeriodEnd,
        createdAt: new Date(created),
      });
      await t4.app.database.db.insert(userSubscriptions).values([
        // a: renews (counts). b: set to cancel, paid until April (counts, as the chat's
        // unlimited messages do). c: an older active row, the newest one ended (canceled at
        // Stripe). d: set to cancel, its period over on the 10th.
        subscription(a.user.id, "active", "2026-04-01T00:00:00Z", "2026-03-01T00:00:00Z"),
        subscription(b.user.id, "active", "2026-04-01T00:00:00Z", "2026-03-01T00:00:00Z", true),
        subscription(c.user.id, "active", "2026-02-01T00:00:00Z", "2026-01-01T00:00:00Z"),
        subscription(c.user.id, "canceled", "2026-03-10T00:00:00Z", "2026-02-01T00:00:00Z"),
        subscription(d.user.id, "active", "2026-03-10T00:00:00Z", "2026-02-10T00:00:00Z", true),
        // Set to cancel, ending today (the clock says 10:00): e an hour ago, f in an hour (counts).
        subscription(e.user.id, "active", "2026-03-15T09:00:00Z", "2026-02-15T00:00:00Z", true),
        subscription(f.user.id, "active", "2026-03-15T11:00:00Z", "2026-02-15T00:00:00Z", true),
      ]);

      fixClock();
      const response = await call(t4, "GET", "/api/admin/dashboard/metrics", {
        token: admin4.token,
      });
      const { data } = adminDashboardFullResponseSchema.parse(response.json());
      expect(data).toMatchObject({
        totalRevenue: {
          value: 5040.99,
          byCurrency: [
            { currency: "usd", value: 5040.99 },
            { currency: "eur", value: 99.99 },
            { currency: "inr", value: 500 },
          ],
        },
        todayRevenue: {
          value: 9.99,
          byCurrency: [
            { currency: "usd", value: 9.99 },
            { currency: "eur", value: 99.99 },
          ],
        },
        yesterdayRevenue: { value: 10, byCurrency: [{ currency: "usd", value: 10 }] },
        thisMonthRevenue: { value: 39.99 },
        lastMonthRevenue: {
          value: 5000,
          byCurrency: [
            { currency: "usd", value: 5000 },
            { currency: "inr", value: 500 },
          ],
        },
        totalPaidUsers: { value: 3 },
      });
      // The transaction screens' cards (kind all) show the very same figures.
      const cards = await call(t4, "GET", "/api/admin/revenue", { token: admin4.token });
      expect(cards.json().data).toEqual({
        totalRevenue: data.totalRevenue,
        todayRevenue: data.todayRevenue,
        yesterdayRevenue: data.yesterdayRevenue,
        thisMonthRevenue: data.thisMonthRevenue,
        lastMonthRevenue: data.lastMonthRevenue,
      });

      const series = await call(t4, "GET", "/api/admin/dashboard/series", {
        token: admin4.token,
        query: { days: "30" },
      });
      const points = adminDashboardSeriesResponseSchema.parse(series.json()).data.points;
      expect(points.find((p) => p.date === "2026-03-15")?.revenue).toBe(9.99);
      expect(points.find((p) => p.date === "2026-02-28")?.revenue).toBe(5000);

      const overview = await call(t4, "GET", "/api/users/dashboard-metrics", { token: a.token });
      const mine = userDashboardMetricsResponseSchema.parse(overview.json()).data;
      expect(mine.creditUsage.recent).toEqual([
        {
          transactionDate: "2026-03-15T01:00:00.000Z",
          credits: 100,
          amount: 9.99,
          currency: "usd",
        },
        {
          transactionDate: "2026-03-14T23:59:59.000Z",
          credits: 250,
          amount: 10,
          currency: "usd",
        },
      ]);
    } finally {
      await t4.close();
    }
  });
});

describe("GET /api/admin/dashboard/series", () => {
  it("answers every UTC day of the last 30 or 90 days with its sign-ups", async () => {
    const { user } = await signUp(t);
    await setCreatedAt(user.id, "2026-03-10T12:00:00Z");
    await seedCall(t, user.id, "2026-03-10T23:59:00Z", 90);
    await seedCall(t, user.id, "2026-03-10T08:00:00Z", 30);
    fixClock();
    const response = await call(t, "GET", "/api/admin/dashboard/series", {
      token: admin.token,
      query: { days: "30" },
    });
    expect(response.statusCode).toBe(200);
    const { data } = adminDashboardSeriesResponseSchema.parse(response.json());
    expect(data.points).toHaveLength(30);
    expect(data.points[0]?.date).toBe("2026-02-14");
    expect(data.points.at(-1)?.date).toBe("2026-03-15");
    expect(data.points.find((p) => p.date === "2026-03-10")).toEqual({
      date: "2026-03-10",
      signups: 1,
      revenue: 0,
      callMinutes: 2,
    });

    const ninety = await call(t, "GET", "/api/admin/dashboard/series", {
      token: admin.token,
      query: { days: "90" },
    });
    expect(adminDashboardSeriesResponseSchema.parse(ninety.json()).data.points).toHaveLength(90);
    const bad = await call(t, "GET", "/api/admin/dashboard/series", {
      token: admin.token,
      query: { days: "7" },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("GET /api/users/dashboard-metrics", () => {
  it("answers the spec's shape from the user's messages and ledger", async () => {
    const { user, token } = await signUp(t);
    await seedMessages(user.id, ["2026-03-14T09:00:00Z", "2026-03-14T09:00:05Z"]);
    await spend(user.id, 10, "2026-03-14T09:10:00Z", `test:${user.id}:1`);
    await spend(user.id, 5, "2026-03-01T09:10:00Z", `test:${user.id}:2`);
    // Older than the chart's 30 days: in the total, not in the chart.
    await spend(user.id, 1, "2026-01-01T09:10:00Z", `test:${user.id}:3`);
    // Take-backs lower the balance but are not usage (issue 24): a refund's and an admin's.
    for (const [kind, amount] of [
      ["refund", 7],
      ["admin_adjustment", 3],
    ] as const) {
      await applyCreditMovement(t.app.database.db, {
        userId: user.id,
        kind,
        amount: -amount,
        sourceKey: `test:${user.id}:${kind}`,
      });
    }
    await seedCall(t, user.id, "2026-03-13T10:00:00Z", 125);
    await seedCall(t, user.id, "2026-03-14T10:00:00Z", 60);
    fixClock();
    const response = await call(t, "GET", "/api/users/dashboard-metrics", { token });
    expect(response.statusCode).toBe(200);
    const { data } = userDashboardMetricsResponseSchema.parse(response.json());
    expect(data.user.credits).toBe(100 - 16 - 10);
    expect(data.user.subscription.status).toBe("inactive");
    expect(data.messages).toEqual({ total: 0, remaining: 5 });
    expect(data.calls).toEqual({
      total: 2,
      totalDuration: 185,
      // 125 s bills three started minutes, 60 s one: four, though 185 s is barely over three.
      minutesBilled: 4,
      lastCallDate: "2026-03-14T10:00:00.000Z",
    });
    expect(data.creditUsage.total).toBe(16);
    expect(data.creditUsage.daily).toHaveLength(30);
    expect(data.creditUsage.daily.find((d) => d.date === "2026-03-14")?.credits).toBe(10);
    expect(data.creditUsage.daily.find((d) => d.date === "2026-03-01")?.credits).toBe(5);
    expect(data.creditUsage.daily.reduce((sum, d) => sum + d.credits, 0)).toBe(15);
    expect(data.lastActivity).not.toBeNull();
  });

  it("needs a user token", async () => {
    const response = await call(t, "GET", "/api/users/dashboard-metrics");
    expect(response.statusCode).toBe(401);
  });
});

describe("GET /api/admin/user-analytics", () => {
  it("sums chat session time, credits used and the last interaction; sorts, searches, pages", async () => {
    const t3 = await createTestApp();
    try {
      const admin3 = await adminSession(t3);
      const a = await signUp(t3, { name: "Alpha Tester", email: "alpha@example.com" });
      const b = await signUp(t3, { name: "Beta Tester", email: "beta@example.com" });
      await signUp(t3, { name: "Silent User", email: "silent@example.com" });
      const prev = t;
      t = t3;
      // Alpha: one session of 60 s (3 messages, 2 from the user), then one 2 h later (1 message).
      await seedMessages(a.user.id, [
        "2026-03-14T09:00:00Z",
        "2026-03-14T09:00:30Z",
        "2026-03-14T09:01:00Z",
      ]);
      await seedMessages(a.user.id, ["2026-03-14T11:01:00Z"]);
      // Beta: one message, later than Alpha's.
      await seedMessages(b.user.id, ["2026-03-15T08:00:00Z"]);
      await spend(b.user.id, 7, "2026-03-15T08:00:00Z", `test:${b.user.id}`);
      t = prev;
      // Gamma only called: 100 s, ending 2026-03-13T10:01:40Z.
      const g = await signUp(t3, { name: "Gamma Caller", email: "gamma@example.com" });
      await seedCall(t3, g.user.id, "2026-03-13T10:00:00Z", 100);

      const get = (query: Record<string, string> = {}) =>
        call(t3, "GET", "/api/admin/user-analytics", { token: admin3.token, query });
      const response = await get();
      expect(response.statusCode).toBe(200);
      const body = userAnalyticsResponseSchema.parse(response.json());
      const alphaTime = 60 + 3 * CHAT_MESSAGE_ALLOWANCE_SECONDS;
      const betaTime = CHAT_MESSAGE_ALLOWANCE_SECONDS;
      expect(body.data.totalInteractedUsers).toBe(3);
      expect(body.data.totalInteractionTime).toBe(alphaTime + betaTime + 100);
      expect(body.data.avgInteractionTime).toBe(Math.round((alphaTime + betaTime + 100) / 3));
      // Default sort: lastInteraction descending.
      expect(body.data.userInteractions.map((u) => u.email)).toEqual([
        "beta@example.com",
        "alpha@example.com",
        "gamma@example.com",
      ]);
      expect(body.data.userInteractions[2]).toMatchObject({
        interactionTime: 100,
        lastInteraction: "2026-03-13T10:01:40.000Z",
      });
      expect(body.data.userInteractions[0]).toMatchObject({
        creditsUsed: 7,
        interactionTime: betaTime,
        lastInteraction: "2026-03-15T08:00:00.000Z",
      });
      expect(body.pagination).toEqual({ total: 3, page: 1, limit: 10, pages: 1 });

      const byTime = userAnalyticsResponseSchema.parse(
        (await get({ sortBy: "interactionTime", sortOrder: "-1" })).json(),
      );
      expect(byTime.data.userInteractions[0]?.email).toBe("alpha@example.com");

      const searched = userAnalyticsResponseSchema.parse((await get({ search: "ALPHA" })).json());
      expect(searched.data.userInteractions.map((u) => u.name)).toEqual(["Alpha Tester"]);
      expect(searched.pagination.total).toBe(1);
      // The cards stay the totals of every user.
      expect(searched.data.totalInteractedUsers).toBe(3);

      const paged = userAnalyticsResponseSchema.parse(
        (await get({ limit: "1", page: "2" })).json(),
      );
      expect(paged.data.userInteractions.map((u) => u.email)).toEqual(["alpha@example.com"]);
      expect(paged.pagination).toEqual({ total: 3, page: 2, limit: 1, pages: 3 });

      const bad = await get({ sortBy: "password" });
      expect(bad.statusCode).toBe(400);
      const nul = await get({ search: "a\u0000b" });
      expect(nul.statusCode).toBe(400);
    } finally {
      await t3.close();
    }
  });
});
