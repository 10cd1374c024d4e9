// The database's cost of storing one chat message, as the chat and the call turns do it: one
// INSERT per message into a user's conversation, autocommitted, on PGlite (or `DATABASE_URL`).
// Baseline in the same run: the same INSERT with the figures triggers off (what the table and its
// indexes cost by themselves). Rounds alternate so the machine's load falls on both alike.
// `BENCH_MESSAGES` (400) per round, `BENCH_ROUNDS` (4), `BENCH_USERS` (20) fans written in turn.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type SQL, sql } from "drizzle-orm";
import { openDatabase } from "../../apps/server/src/db/client.ts";
import { applyMigrations } from "../../apps/server/src/db/migrate.ts";
import { percentile } from "../lib/latency.ts";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const USERS = Number(process.env.BENCH_USERS ?? 20);

const connection = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: mkdtempSync(join(tmpdir(), "twinline-messages-")),
});
await applyMigrations(connection);
const { db } = connection;

async function returnedId(query: SQL): Promise<string> {
  const { rows } = (await db.execute(query)) as unknown as { rows: { id: string }[] };
  const id = rows[0]?.id;
  if (!id) throw new Error("no id returned");
  return id;
}

const fans: { user: string; conversation: string }[] = [];
for (let i = 0; i < USERS; i++) {
  const user = await returnedId(sql`
    INSERT INTO users (email, name, role) VALUES (${`bench-${Date.now()}-${i}@example.com`}, 'Bench', 'user')
    RETURNING id`);
  const conversation = await returnedId(sql`
    INSERT INTO conversations (user_id, title) VALUES (${user}, 'Bench') RETURNING id`);
  fans.push({ user, conversation });
}

const triggers = sql.raw(`"chat_messages_figures_insert"`);
async function round(figures: boolean): Promise<number[]> {
  await db.execute(
    figures
      ? sql`ALTER TABLE chat_messages ENABLE TRIGGER ${triggers}`
      : sql`ALTER TABLE chat_messages DISABLE TRIGGER ${triggers}`,
  );
  const times: number[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const fan = fans[i % fans.length] as (typeof fans)[number];
    const started = performance.now();
    await db.execute(sql`
      INSERT INTO chat_messages (conversation_id, user_id, sender, content)
      VALUES (${fan.conversation}, ${fan.user}, ${i % 2 ? "ai" : "user"},
        ${"What did you do today, and what are you planning for the weekend?"})`);
    times.push(performance.now() - started);
  }
  return times;
}

const all = { on: [] as number[], off: [] as number[] };
for (let r = 0; r < ROUNDS; r++) {
  for (const figures of r % 2 ? [true, false] : [false, true]) {
    all[figures ? "on" : "off"].push(...(await round(figures)));
  }
}
await db.execute(sql`ALTER TABLE chat_messages ENABLE TRIGGER ${triggers}`);
await connection.close();

const show = (label: string, times: number[]) =>
  `${label}: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms`;
console.log(
  `database: ${connection.kind}, ${ROUNDS} rounds of ${MESSAGES} messages, ${USERS} fans`,
);
console.log(show("insert with figures", all.on));
console.log(show("insert, figures off (baseline)", all.off));
console.log(
  `ratio p50 ${(percentile(all.on, 50) / percentile(all.off, 50)).toFixed(2)}x, ` +
    `p99 ${(percentile(all.on, 99) / percentile(all.off, 99)).toFixed(2)}x`,
);
