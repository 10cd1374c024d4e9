// The admin dashboard reads its figures from the rollup that triggers keep (dashboard_days,
// users.first_call_at, users.subscribed_until: migration 0011). Whatever is written to the
// tables, by the app or by hand, the rollup's figures must equal the same figures counted from
// the tables themselves: these tests write at random and compare, on PGlite and PostgreSQL.

import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import {
  payments,
  subscriptionPlans,
  userSubscriptions,
  users,
  voiceCalls,
} from "../../db/schema/index.ts";
import { createTransactionsRepository } from "../billing/transactions/transactions-repository.ts";
import { utcPeriods } from "./periods.ts";
import { type AdminFigures, createDashboardsRepository } from "./repository.ts";

const DAY_MS = 86_400_000;

let t: TestApp;
let planId: string;

beforeAll(async () => {
  t = await createTestApp();
  const [plan] = await t.app.database.db
    .insert(subscriptionPlans)
    .values({ name: "Rollup plan", priceMinor: 1000 })
    .returning();
  if (!plan) throw new Error("no plan");
  planId = plan.id;
});
afterAll(() => t?.close());

const rows = async <T>(query: SQL) =>
  ((await t.app.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** The admin figures counted from the tables (what the rollup stands for). */
async function countedFromTables(now: Date): Promise<AdminFigures> {
  const p = utcPeriods(now);
  const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  const between = (column: SQL, from: Date, to: Date) =>
    sql`${column} >= ${iso(from)} and ${column} < ${iso(to)}`;
  const signups = (range: SQL) =>
    sql`(select count(*) from users where role = 'user' and ${range})::float8`;
  const [row] = await rows<AdminFigures>(sql`select
    ${signups(sql`true`)} as "totalUsers",
    ${signups(between(sql`created_at`, p.today, p.tomorrow))} as "todayUsers",
    ${signups(between(sql`created_at`, p.yesterday, p.today))} as "yesterdayUsers",
    ${signups(between(sql`created_at`, p.thisMonth, p.tomorrow))} as "thisMonthUsers",
    ${signups(between(sql`created_at`, p.lastMonth, p.thisMonth))} as "lastMonthUsers",
    (select count(*) from users u where role = 'user'
      and exists (select 1 from voice_calls v where v.user_id = u.id))::float8 as "callers",
    (select count(*) from users u where role = 'user' and coalesce((
      select s.status in ('active', 'past_due') and (not s.cancel_at_period_end or s.current_period_end > ${iso(now)})
      from user_subscriptions s where s.user_id = u.id
      order by s.created_at desc,
        subscribed_until_of(s.status, s.cancel_at_period_end, s.current_period_end) desc nulls last, s.id desc
      limit 1
    ), false))::float8 as "paidUsers"`);
  if (!row) throw new Error("no figures");
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, Number(value)]),
  ) as AdminFigures;
}

/** Sign-ups, revenue and call seconds per UTC day, counted from the tables (days with any). */
async function dailyFromTables() {
  const found = await rows<{ day: string; signups: number; revenue: number; seconds: number }>(sql`
    select to_char(day, 'YYYY-MM-DD') as day, sum(signups)::float8 as signups, sum(revenue)::float8 as revenue, sum(seconds)::float8 as seconds
    from (
      select utc_day(created_at) as day, 1 as signups, 0 as revenue, 0 as seconds from users where role = 'user'
      union all
      select utc_day(transaction_date), 0, amount_minor - refunded_minor, 0 from payments where status in ('success', 'refunded') and currency = 'usd'
      union all
      select utc_day(started_at), 0, 0, duration_seconds from voice_calls
    ) days group by day`);
  return new Map(
    found
      .filter((d) => d.signups !== 0 || d.revenue !== 0 || d.seconds !== 0)
      .map((d) => [
        d.day,
        {
          signups: Number(d.signups),
          revenueCents: Number(d.revenue),
          callSeconds: Number(d.seconds),
        },
      ]),
  );
}

/**
 * The revenue figures counted from the tables: each currency summed on its own (never added
 * together), USD as the headline and first, other currencies beside it when not zero.
 */
async function revenueFromTables(kind: "all" | "credits" | "subscriptions", now: Date) {
  const p = utcPeriods(now);
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const ofKind =
    kind === "all" ? sql`true` : sql`kind = ${kind === "credits" ? "credits" : "subscription"}`;
  const figures = {
    totalRevenue: [undefined, undefined],
    todayRevenue: [p.today, p.tomorrow],
    yesterdayRevenue: [p.yesterday, p.today],
    thisMonthRevenue: [p.thisMonth, nextMonth],
    lastMonthRevenue: [p.lastMonth, p.thisMonth],
  } as const;
  const result: Record<
    string,
    { value: number; byCurrency: { currency: string; value: number }[] }
  > = {};
  for (const [name, [from, to]] of Object.entries(figures)) {
    const range =
      from && to
        ? sql`and transaction_date >= ${from.toISOString()}::timestamptz and transaction_date < ${to.toISOString()}::timestamptz`
        : sql``;
    const sums = await rows<{ currency: string; cents: string }>(sql`
      select c.currency, coalesce((select sum(amount_minor - refunded_minor) from payments
        where status in ('success', 'refunded') and currency = c.currency::billing_currency and ${ofKind} ${range}), 0)::text as cents
      from (values ('usd', 1), ('eur', 2), ('gbp', 3), ('inr', 4)) as c(currency, n) order by c.n`);
    const byCurrency = sums
      .map((row) => ({ currency: row.currency, value: Number(row.cents) / 100 }))
      .filter((entry) => entry.currency === "usd" || entry.value !== 0);
    result[name] = { value: byCurrency[0]?.value ?? 0, byCurrency };
  }
  return result;
}

async function expectRollupExact(now: Date) {
  const repository = createDashboardsRepository(t.app.database.db);
  expect(await repository.adminFigures(utcPeriods(now), now)).toEqual(await countedFromTables(now));
  const transactions = createTransactionsRepository(t.app.database.db);
  for (const kind of ["all", "credits", "subscriptions"] as const) {
    expect(await transactions.revenue(kind, now)).toEqual(await revenueFromTables(kind, now));
  }
  // The dashboard's revenue and the "all" cards are the same figures.
  expect(await repository.revenue("all", now)).toEqual(await transactions.revenue("all", now));
  const series = await repository.dailySeries(new Date(0));
  const nonZero = new Map(
    [...series].filter(([, d]) => d.signups !== 0 || d.revenueCents !== 0 || d.callSeconds !== 0),
  );
  expect(nonZero).toEqual(await dailyFromTables());
}

/** A moment within 70 days of `now`, so every period of the figures gets some. */
const moment = (now: Date) =>
  fc.integer({ min: -70 * 24, max: 2 }).map((hours) => new Date(now.getTime() + hours * 3_600_000));

type Operation = (now: Date) => Promise<void>;

const pick = async <T>(query: SQL) => (await rows<T>(query))[0];

function operations(now: Date): fc.Arbitrary<Operation> {
  const db = t.app.database.db;
  const next = () => randomUUID();
  const randomUser = () =>
    pick<{ id: string }>(sql`select id from users where role = 'user' order by random() limit 1`);
  return fc.oneof(
    moment(now).map((at) => async () => {
      await db
        .insert(users)
        .values({ name: "R", email: `rollup-${next()}@example.com`, createdAt: at });
    }),
    moment(now).map((at) => async () => {
      const user = await randomUser();
      if (user)
        await db.execute(
          sql`update users set created_at = ${at.toISOString()}::timestamptz where id = ${user.id}`,
        );
    }),
    fc.constantFrom("admin", "user").map((role) => async () => {
      const user = await pick<{ id: string }>(sql`select id from users order by random() limit 1`);
      if (user) await db.execute(sql`update users set role = ${role} where id = ${user.id}`);
    }),
    fc
      .record({
        at: moment(now),
        cents: fc.integer({ min: 0, max: 100_000 }),
        status: fc.constantFrom("success", "success", "pending", "failed"),
        currency: fc.constantFrom("usd", "usd", "eur", "gbp", "inr"),
        kind: fc.constantFrom("credits", "subscription"),
      })
      .map((p) => async () => {
        const user = await randomUser();
        if (!user) return;
        await db.insert(payments).values({
          kind: p.kind as "credits",
          userId: user.id,
          status: p.status as "success",
          amountMinor: p.cents,
          currency: p.currency as "usd",
          itemName: "Rollup",
          provider: "sandbox",
          sourceKey: `rollup:${next()}`,
          transactionDate: p.at,
        });
      }),
    fc
      .record({
        at: moment(now),
        cents: fc.integer({ min: 0, max: 100_000 }),
        status: fc.constantFrom("success", "pending", "failed"),
        kind: fc.constantFrom("credits", "subscription"),
        currency: fc.constantFrom("usd", "eur", "inr"),
      })
      .map((p) => async () => {
        const payment = await pick<{ id: string }>(
          sql`select id from payments order by random() limit 1`,
        );
        if (!payment) return;
        await db.execute(sql`update payments set status = ${p.status}, amount_minor = ${p.cents},
          refunded_minor = least(refunded_minor, ${p.cents}), kind = ${p.kind}, currency = ${p.currency}, transaction_date = ${p.at.toISOString()}::timestamptz where id = ${payment.id}`);
      }),
    // A refund in part or in whole (revenue is net of refunds, issue 24): what settleRefund writes.
    fc.integer({ min: 0, max: 100 }).map((percent) => async () => {
      await db.execute(sql`update payments set
          refunded_minor = refunded_minor + ((amount_minor - refunded_minor) * ${percent}::int / 100),
          status = case when status = 'success' and refunded_minor + ((amount_minor - refunded_minor) * ${percent}::int / 100) = amount_minor
            then 'refunded' else status end
        where id = (select id from payments order by random() limit 1)`);
    }),
    fc.constant(async () => {
      await db.execute(
        sql`delete from payments where id = (select id from payments order by random() limit 1)`,
      );
    }),
    fc
      .record({ at: moment(now), seconds: fc.integer({ min: 0, max: 3_600 }) })
      .map((c) => async () => {
        const user = await randomUser();
        if (!user) return;
        await db.insert(voiceCalls).values({
          userId: user.id,
          startedAt: c.at,
          endedAt: new Date(c.at.getTime() + c.seconds * 1000),
          durationSeconds: c.seconds,
          creditsPerMinute: 5,
        });
      }),
    fc
      .record({ at: moment(now), seconds: fc.integer({ min: 0, max: 3_600 }) })
      .map((c) => async () => {
        await db.execute(sql`update voice_calls set duration_seconds = ${c.seconds},
        started_at = ${c.at.toISOString()}::timestamptz
        where id = (select id from voice_calls order by random() limit 1)`);
      }),
    fc.constant(async () => {
      await db.execute(
        sql`delete from voice_calls where id = (select id from voice_calls order by random() limit 1)`,
      );
    }),
    fc
      .record({
        created: moment(now),
        end: moment(now).map((d) => new Date(d.getTime() + 40 * DAY_MS)),
        status: fc.constantFrom("active", "past_due", "canceled", "incomplete"),
        cancel: fc.boolean(),
      })
      .map((s) => async () => {
        const user = await randomUser();
        if (!user) return;
        await db.insert(userSubscriptions).values({
          userId: user.id,
          planId,
          provider: "sandbox",
          providerSubscriptionId: `sub_rollup_${next()}`,
          priceMinor: 1000,
          currency: "usd",
          status: s.status as "active",
          currentPeriodStart: s.created,
          currentPeriodEnd: s.end,
          cancelAtPeriodEnd: s.cancel,
          createdAt: s.created,
        });
      }),
    fc
      .record({
        end: moment(now).map((d) => new Date(d.getTime() + 40 * DAY_MS)),
        status: fc.constantFrom("active", "past_due", "canceled", "unpaid"),
        cancel: fc.boolean(),
      })
      .map((s) => async () => {
        await db.execute(sql`update user_subscriptions set status = ${s.status},
          cancel_at_period_end = ${s.cancel}, current_period_end = ${s.end.toISOString()}::timestamptz
          where id = (select id from user_subscriptions order by random() limit 1)`);
      }),
    fc.constant(async () => {
      await db.execute(
        sql`delete from users where id = (select id from users order by random() limit 1)`,
      );
    }),
  );
}

describe("the dashboard rollup", () => {
  it("equals the figures counted from the tables after any sequence of writes", async () => {
    const now = new Date();
    await fc.assert(
      fc.asyncProperty(fc.array(operations(now), { minLength: 1, maxLength: 25 }), async (ops) => {
        for (const op of ops) await op(now);
        await expectRollupExact(now);
      }),
      { numRuns: 20 },
    );
  });

  it("counts a bulk load of a statement exactly (the seed of a large table)", async () => {
    const db = t.app.database.db;
    await db.execute(sql`insert into users (name, email, created_at)
      select 'Bulk ' || g, 'rollup-bulk-' || g || '@example.com', now() - g * interval '7 hours'
      from generate_series(1, 300) g`);
    await db.execute(sql`insert into payments (kind, user_id, status, amount_minor, currency, item_name, provider, source_key, transaction_date)
      select 'credits', u.id, 'success', 100 + g, 'usd', 'Bulk', 'sandbox', 'rollup-bulk:' || g, now() - g * interval '5 hours'
      from generate_series(1, 300) g
      join (select id, row_number() over () as n from users where email like 'rollup-bulk-%') u on u.n = g`);
    await db.execute(sql`insert into voice_calls (user_id, started_at, duration_seconds, credits_per_minute)
      select id, now() - interval '1 day', 61, 5 from users where email like 'rollup-bulk-%'`);
    await expectRollupExact(new Date());
  });

  it("stays exact when sign-ups, payments and calls land at once", async () => {
    const db = t.app.database.db;
    const [user] = await db
      .insert(users)
      .values({ name: "Parallel", email: `rollup-parallel-${Date.now()}@example.com` })
      .returning();
    if (!user) throw new Error("no user");
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? db.insert(payments).values({
              kind: "credits",
              userId: user.id,
              status: "success",
              amountMinor: 999,
              currency: "usd",
              itemName: "Parallel",
              provider: "sandbox",
              sourceKey: `rollup-parallel:${user.id}:${i}`,
            })
          : db.insert(users).values({
              name: "Parallel",
              email: `rollup-parallel-${user.id}-${i}@example.com`,
            }),
      ),
    );
    await expectRollupExact(new Date());
  });
});

describe("revenue net of refunds (issue 24)", () => {
  it("a payment refunded in part counts what was kept, one refunded in whole nothing", async () => {
    const db = t.app.database.db;
    const now = new Date();
    const transactions = createTransactionsRepository(db);
    const before = (await transactions.revenue("credits", now)).todayRevenue.value;
    const [user] = await db
      .insert(users)
      .values({ name: "Refunded", email: `rollup-refund-${randomUUID()}@example.com` })
      .returning();
    if (!user) throw new Error("no user");
    const paid = (sourceKey: string) =>
      db
        .insert(payments)
        .values({
          kind: "credits",
          userId: user.id,
          status: "success",
          amountMinor: 3199,
          currency: "usd",
          itemName: "Net",
          provider: "sandbox",
          sourceKey,
          transactionDate: now,
        })
        .returning();
    const [partly] = await paid(`rollup-net:${randomUUID()}`);
    const [wholly] = await paid(`rollup-net:${randomUUID()}`);
    await db.execute(sql`update payments set refunded_minor = 1000 where id = ${partly?.id}`);
    await db.execute(
      sql`update payments set refunded_minor = 3199, status = 'refunded' where id = ${wholly?.id}`,
    );
    const after = (await transactions.revenue("credits", now)).todayRevenue.value;
    expect(Math.round((after - before) * 100)).toBe(2199);
    await expectRollupExact(now);
  });
});
