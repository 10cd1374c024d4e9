// User Analytics and "Last Active" read figures that triggers keep on users (migration 0016,
// docs/decisions/0048). Whatever is written, by the app or by hand, one row or many at once, the
// kept figures must equal the same figures counted from the tables (decision 0026's chat time):
// these tests write at random and compare, on PGlite and PostgreSQL.

import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { conversations, users } from "../../db/schema/index.ts";
import {
  CHAT_MESSAGE_ALLOWANCE_SECONDS,
  CHAT_SESSION_GAP_SECONDS,
  createDashboardsRepository,
} from "./repository.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // A few users from the start, so messages crowd each one's history.
  await t.app.database.db
    .insert(users)
    .values(
      [1, 2, 3].map((n) => ({ name: `F${n}`, email: `figures-${randomUUID()}@example.com` })),
    );
});
afterAll(() => t?.close());

const rows = async <T>(query: SQL) =>
  ((await t.app.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const pick = async <T>(query: SQL) => (await rows<T>(query))[0];

interface Figures {
  id: string;
  interactionTime: number;
  creditsUsed: number;
  lastInteraction: string | null;
  lastActive: string | null;
}

/** Every interacting user's figures counted from the tables: the query analytics ran before. */
async function countedFromTables(): Promise<Figures[]> {
  return rows<Figures>(sql`
    with gaps as (
      select user_id, sender, created_at,
        extract(epoch from created_at - lag(created_at) over (partition by user_id order by created_at, seq)) as gap
      from chat_messages
    ),
    chat as (
      select user_id, coalesce(sum(gap) filter (where gap <= ${CHAT_SESSION_GAP_SECONDS}), 0)
          + ${CHAT_MESSAGE_ALLOWANCE_SECONDS} * count(*) filter (where sender = 'user') as seconds,
        max(created_at) as last_at
      from gaps group by user_id
    ),
    calls as (
      select user_id, sum(duration_seconds) as seconds, max(coalesce(ended_at, started_at)) as last_at
      from voice_calls group by user_id
    ),
    spent as (
      select user_id, sum(-amount) as credits from credit_ledger where amount < 0 and kind = 'call_minute' group by user_id
    )
    select u.id, round(coalesce(c.seconds, 0) + coalesce(v.seconds, 0))::float8 as "interactionTime",
      coalesce(s.credits, 0)::float8 as "creditsUsed",
      to_char(greatest(c.last_at, v.last_at) at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as "lastInteraction",
      to_char(greatest(u.last_login, c.last_at, v.last_at) at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as "lastActive"
    from users u
    left join chat c on c.user_id = u.id
    left join calls v on v.user_id = u.id
    left join spent s on s.user_id = u.id
    where u.role = 'user' and (c.user_id is not null or v.user_id is not null)
    order by u.id`);
}

async function keptFigures(): Promise<Figures[]> {
  return rows<Figures>(sql`
    select id, round(interaction_micros::numeric / 1000000)::float8 as "interactionTime",
      credits_used::float8 as "creditsUsed",
      to_char(last_interaction_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as "lastInteraction",
      to_char(last_active_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as "lastActive"
    from users where role = 'user' and last_interaction_at is not null order by id`);
}

async function expectKeptExact() {
  const counted = await countedFromTables();
  expect(await keptFigures()).toEqual(counted);
  // Users who never chatted nor called keep zeros and last_active_at = last_login.
  const [idle] = await rows<{ wrong: number }>(sql`select count(*)::int as wrong from users u
    where last_interaction_at is null and (interaction_micros <> 0
      or last_active_at is distinct from last_login
      or credits_used <> coalesce((select sum(-amount) from credit_ledger l where l.user_id = u.id and amount < 0 and kind = 'call_minute'), 0))`);
  expect(idle?.wrong).toBe(0);
  const analytics = await createDashboardsRepository(t.app.database.db).userAnalytics({
    page: 1,
    limit: 5,
    sortBy: "interactionTime",
    sortOrder: -1,
  });
  expect(analytics.totalUsers).toBe(counted.length);
  expect(analytics.totalTime).toBe(counted.reduce((sum, f) => sum + f.interactionTime, 0));
  expect(analytics.rows.map((row) => row.interactionTime)).toEqual(
    counted
      .map((f) => f.interactionTime)
      .sort((a, b) => b - a)
      .slice(0, 5),
  );
}

type Operation = () => Promise<void>;

const NOW = Date.now();
/** Moments within 100 minutes, so gaps fall both within and beyond 30 minutes. */
const moment = fc
  .integer({ min: 0, max: 100 * 60 })
  .map((seconds) => new Date(NOW - seconds * 1000 - 0.5 * (seconds % 2)));
const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;

function operations(): fc.Arbitrary<Operation> {
  const db = t.app.database.db;
  const randomUser = () =>
    pick<{ id: string }>(sql`select id from users where role = 'user' order by random() limit 1`);
  const conversationOf = async (userId: string) => {
    const found = await pick<{ id: string }>(
      sql`select id from conversations where user_id = ${userId} order by random() limit 1`,
    );
    if (found) return found.id;
    const [made] = await db.insert(conversations).values({ userId, title: "Figures" }).returning();
    if (!made) throw new Error("no conversation");
    return made.id;
  };
  return fc.oneof(
    fc.constant(async () => {
      await db.insert(users).values({ name: "F", email: `figures-${randomUUID()}@example.com` });
    }),
    // One message or several in one statement, anywhere in the user's history.
    fc
      .array(fc.record({ at: moment, sender: fc.constantFrom("user", "ai") }), {
        minLength: 1,
        maxLength: 4,
      })
      .map((messages) => async () => {
        const user = await randomUser();
        if (!user) return;
        const conversationId = await conversationOf(user.id);
        await db.execute(sql`insert into chat_messages (conversation_id, user_id, sender, content, created_at)
          values ${sql.join(
            messages.map(
              (m) => sql`(${conversationId}, ${user.id}, ${m.sender}, 'hi', ${iso(m.at)})`,
            ),
            sql`, `,
          )}`);
      }),
    // Messages at the same moment (PGlite's coarse clock): seq breaks the tie.
    moment.map((at) => async () => {
      const user = await randomUser();
      if (!user) return;
      const conversationId = await conversationOf(user.id);
      await db.execute(sql`insert into chat_messages (conversation_id, user_id, sender, content, created_at)
        select ${conversationId}, ${user.id}, 'user', 'same', ${iso(at)} from generate_series(1, 3)`);
    }),
    fc.constant(async () => {
      await db.execute(
        sql`delete from chat_messages where id = (select id from chat_messages order by random() limit 1)`,
      );
    }),
    // Clear chat: a conversation and every message in it, in one cascade.
    fc.constant(async () => {
      await db.execute(
        sql`delete from conversations where id = (select id from conversations order by random() limit 1)`,
      );
    }),
    moment.map((at) => async () => {
      await db.execute(sql`update chat_messages set created_at = ${iso(at)}
        where id = (select id from chat_messages order by random() limit 1)`);
    }),
    fc
      .record({ at: moment, seconds: fc.integer({ min: 0, max: 3_600 }), open: fc.boolean() })
      .map((c) => async () => {
        const user = await randomUser();
        if (!user) return;
        // One open call per user (voice_calls_one_open_per_user): end any before opening another.
        await db.execute(
          sql`update voice_calls set ended_at = started_at where user_id = ${user.id} and ended_at is null`,
        );
        await db.execute(sql`insert into voice_calls (user_id, started_at, ended_at, duration_seconds, credits_per_minute)
          values (${user.id}, ${iso(c.at)}, ${c.open ? null : iso(new Date(c.at.getTime() + c.seconds * 1000))}, ${c.seconds}, 5)`);
      }),
    // The meter's minute and the call's end, or a call moved by hand.
    fc
      .record({ seconds: fc.integer({ min: 0, max: 3_600 }), moved: fc.option(moment) })
      .map((c) => async () => {
        await db.execute(sql`update voice_calls set duration_seconds = ${c.seconds},
          ended_at = case when ended_at is null then null else started_at + ${c.seconds} * interval '1 second' end
          ${c.moved ? sql`, started_at = ${iso(c.moved)}` : sql``}
          where id = (select id from voice_calls order by random() limit 1)`);
      }),
    fc.constant(async () => {
      await db.execute(
        sql`update voice_calls set duration_seconds = duration_seconds + 60 where user_id = (select user_id from voice_calls order by random() limit 1)`,
      );
    }),
    fc.constant(async () => {
      await db.execute(
        sql`delete from voice_calls where id = (select id from voice_calls order by random() limit 1)`,
      );
    }),
    // Take-backs (a refund, an admin's) are negative too, but not usage (issue 24).
    fc
      .record({
        amount: fc.integer({ min: -50, max: 50 }),
        takeBack: fc.constantFrom(null, "refund", "admin_adjustment"),
      })
      .map(({ amount, takeBack }) => async () => {
        const user = await randomUser();
        if (!user) return;
        await db.execute(sql`insert into credit_ledger (user_id, kind, amount, balance_after, source_key)
        values (${user.id}, ${amount < 0 ? (takeBack ?? "call_minute") : "admin_adjustment"}, ${amount}, 0, ${`figures:${randomUUID()}`})`);
      }),
    fc.constant(async () => {
      await db.execute(
        sql`delete from credit_ledger where id = (select id from credit_ledger order by random() limit 1)`,
      );
    }),
    moment.map((at) => async () => {
      const user = await randomUser();
      if (user)
        await db.execute(sql`update users set last_login = ${iso(at)} where id = ${user.id}`);
    }),
    // A user deleted with everything they own (the ledger is kept by design: removed first).
    fc.constant(async () => {
      const user = await randomUser();
      if (!user) return;
      await db.transaction(async (tx) => {
        await tx.execute(sql`delete from credit_ledger where user_id = ${user.id}`);
        await tx.execute(sql`delete from users where id = ${user.id}`);
      });
    }),
  );
}

describe("User Analytics' kept figures", () => {
  it("equal the figures counted from the tables after any sequence of writes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operations(), { minLength: 1, maxLength: 25 }), async (ops) => {
        for (const op of ops) await op();
        await expectKeptExact();
      }),
      { numRuns: 20 },
    );
  });

  it("stay exact when one user's messages and calls land at once", async () => {
    const db = t.app.database.db;
    const [user] = await db
      .insert(users)
      .values({ name: "Parallel", email: `figures-parallel-${randomUUID()}@example.com` })
      .returning();
    if (!user) throw new Error("no user");
    const [conversation] = await db
      .insert(conversations)
      .values({ userId: user.id, title: "Parallel" })
      .returning();
    if (!conversation) throw new Error("no conversation");
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 2
          ? db.execute(sql`insert into voice_calls (user_id, started_at, ended_at, duration_seconds, credits_per_minute)
              values (${user.id}, now(), now(), ${i}, 5)`)
          : db.execute(sql`insert into chat_messages (conversation_id, user_id, sender, content)
              values (${conversation.id}, ${user.id}, ${i % 2 === 0 ? "user" : "ai"}, 'parallel')`),
      ),
    );
    await expectKeptExact();
  });
});
