// A census of one chat send on PGlite: every statement the app sends to the database thread
// while it serves POST /api/chat/message (offline responder), in order, with the time each was
// waiting for the thread. Counts, not timings, are its figure: run it before and after a change
// of the send path. `BENCH_SENDS` (5) sends into one conversation after its first.
import { Worker } from "node:worker_threads";
import { buildApp } from "../../apps/server/src/app.ts";
import { benchAppConfig, browserCsrf, signUpBenchUser } from "../lib/app-api.ts";

const SENDS = Number(process.env.BENCH_SENDS ?? 5);

let recording = false;
let log: string[] = [];
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
  if (recording && message && typeof message === "object" && "op" in message) {
    const m = message as { op: string; sql?: string; tx?: number };
    const text = m.sql ? m.sql.replace(/\s+/g, " ").slice(0, 110) : "";
    log.push(`${m.op}${m.tx === undefined ? "" : ` (tx)`} ${text}`);
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
await app.close();
