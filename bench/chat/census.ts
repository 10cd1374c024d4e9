// A census of one chat send on PGlite: every statement the app sends to the database thread
// while it serves POST /api/chat/message (offline responder), in order, with the time each was
// waiting for the thread. Counts, not timings, are its figure: run it before and after a change
// of the send path. `BENCH_SENDS` (5) sends into one conversation after its first.
// `BENCH_EXPLAIN=1` then runs each statement of one more send under EXPLAIN ANALYZE
// `BENCH_EXPLAIN_RUNS` (7) times and prints the median planning and execution time of each:
// where a send's database time goes, without the thread's queueing (a plan is made for every
// statement: PGlite's statements are unnamed).
import { Worker } from "node:worker_threads";
import { buildApp } from "../../apps/server/src/app.ts";
import { benchAppConfig, browserCsrf, signUpBenchUser } from "../lib/app-api.ts";

const SENDS = Number(process.env.BENCH_SENDS ?? 5);

let recording = false;
let log: string[] = [];
/** The statements of the send being recorded, with their parameters (for BENCH_EXPLAIN). */
let statements: Array<{ sql: string; params: unknown[] }> = [];
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
  // lib/worker-rpc.ts's calls: { id, method, input }.
  if (recording && message && typeof message === "object" && "method" in message) {
    const { method, input } = message as {
      method: string;
      input?: { sql?: string; params?: unknown[]; tx?: number };
    };
    const text = input?.sql ? input.sql.replace(/\s+/g, " ").slice(0, 110) : "";
    log.push(`${method}${input?.tx === undefined ? "" : " (tx)"} ${text}`);
    if (method === "query" && input?.sql) {
      statements.push({ sql: input.sql, params: input.params ?? [] });
    }
  }
  return (post as (...args: unknown[]) => void).call(this, message, ...rest);
} as typeof Worker.prototype.postMessage;

const { config } = benchAppConfig("census");
const app = await buildApp({ config, logger: false });
await app.ready();
await app.settings.update({ freeMessagesPerDay: 100_000_000 });
const { headers } = await browserCsrf(app);
const { token } = await signUpBenchUser(app, headers, {
  name: "Census",
  email: `census-${Date.now()}@example.com`,
});
const send = (conversationId?: string) =>
  app.inject({
    method: "POST",
    url: "/api/chat/message",
    headers: { ...headers, authorization: `Bearer ${token}` },
    payload: { message: "What did you do today, and what are you planning?", conversationId },
  });

const census = async (label: string, conversationId?: string) => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  log = [];
  statements = [];
  recording = true;
  const response = await send(conversationId);
  recording = false;
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  console.log(`\n${label}: ${log.length} calls to the database thread`);
  for (const line of log) console.log(`  ${line}`);
  return response.json().data.conversationId as string;
};
const conversationId = await census("first send (new conversation)");
for (let i = 0; i < SENDS; i++) await census(`send ${i + 1} into it`, conversationId);
if (process.env.BENCH_EXPLAIN === "1") await explainOneSend(conversationId);
await app.close();

async function explainOneSend(conversationId: string) {
  const runs = Number(process.env.BENCH_EXPLAIN_RUNS ?? 7);
  await census("explained send", conversationId);
  const connection = app.database;
  if (connection.kind !== "pglite") throw new Error("The census reads PGlite's thread");
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  let planning = 0;
  let execution = 0;
  console.log("\nmedian planning / execution ms of each statement (EXPLAIN ANALYZE):");
  for (const { sql, params } of statements) {
    if (!/^\s*(with|select|insert|update|delete)\b/i.test(sql)) continue;
    const times = { planning: [] as number[], execution: [] as number[] };
    // Inside a transaction rolled back: the writes explained are not made again.
    for (let run = 0; run < runs; run++) {
      await connection.client.exec("begin");
      const result = await connection.client.query<Record<string, string>>(
        `explain (analyze, timing off, summary on) ${sql}`,
        params,
      );
      await connection.client.exec("rollback");
      for (const row of result.rows) {
        const line = Object.values(row)[0] ?? "";
        const found = /^(Planning|Execution) Time: ([\d.]+) ms/.exec(line);
        if (found) times[found[1] === "Planning" ? "planning" : "execution"].push(Number(found[2]));
      }
    }
    planning += median(times.planning);
    execution += median(times.execution);
    const text = sql.replace(/\s+/g, " ").trim().slice(0, 90);
    console.log(
      `  ${median(times.planning).toFixed(2).padStart(6)} / ${median(times.execution).toFixed(2).padStart(6)}  ${text}`,
    );
  }
  console.log(`  ${planning.toFixed(2).padStart(6)} / ${execution.toFixed(2).padStart(6)}  in all`);
}
