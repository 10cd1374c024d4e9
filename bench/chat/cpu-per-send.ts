// CPU time per chat send, in one process (the app and its PGlite thread), offline responder:
// `BENCH_USERS` (20) fans each send into their conversation again as soon as answered, through
// app.inject, for `BENCH_SECONDS` (10). The process's CPU time (process.cpuUsage: every thread)
// over the sends made is steadier than req/s on a shared machine: it is the work a send costs,
// whoever else uses the cores. Run the trees to compare in turn, alternating. On Linux it is
// also split into the main thread's and the other threads' (the PGlite thread's, mostly).
import { readdirSync } from "node:fs";
import { buildApp } from "../../apps/server/src/app.ts";
import { benchAppConfig, browserCsrf, signUpBenchUser } from "../lib/app-api.ts";
import { cpuMsOfStat } from "../lib/proc-cpu.mjs";

const USERS = Number(process.env.BENCH_USERS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

const { config } = benchAppConfig("cpu-per-send");
const app = await buildApp({ config, logger: false, authRateLimit: { max: 100_000 } });
await app.settings.update({ freeMessagesPerDay: 100_000_000 });
const { headers } = await browserCsrf(app);
const message = "What did you do today, and what are you planning for the weekend?";
const fans: Array<{ auth: Record<string, string>; conversationId: string }> = [];
for (let i = 0; i < USERS; i++) {
  const { token } = await signUpBenchUser(app, headers, {
    name: `Bench ${i}`,
    email: `cpu-${i}-${Date.now()}@example.com`,
  });
  const auth = { ...headers, authorization: `Bearer ${token}` };
  const first = await app.inject({
    method: "POST",
    url: "/api/chat/message",
    headers: auth,
    payload: { message },
  });
  fans.push({ auth, conversationId: first.json().data.conversationId as string });
}
const sendAll = async (seconds: number) => {
  const until = performance.now() + seconds * 1000;
  let sends = 0;
  await Promise.all(
    fans.map(async ({ auth, conversationId }) => {
      while (performance.now() < until) {
        const response = await app.inject({
          method: "POST",
          url: "/api/chat/message",
          headers: auth,
          payload: { message, conversationId },
        });
        if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
        sends++;
      }
    }),
  );
  return sends;
};
/** CPU ms of the app's main thread and of all the others (the PGlite thread's the most), from /proc. */
const threadCpuMs = () => {
  const ms = { main: 0, others: 0 };
  try {
    for (const tid of readdirSync("/proc/self/task")) {
      ms[Number(tid) === process.pid ? "main" : "others"] += cpuMsOfStat(
        `/proc/self/task/${tid}/stat`,
      );
    }
  } catch {
    // Not Linux: only the process's total is reported.
  }
  return ms;
};
await sendAll(2); // warm-up
const threads = threadCpuMs();
const cpu = process.cpuUsage();
const started = performance.now();
const sends = await sendAll(SECONDS);
const used = process.cpuUsage(cpu);
const threadsAfter = threadCpuMs();
const wall = (performance.now() - started) / 1000;
const cpuMs = (used.user + used.system) / 1000;
console.log(
  JSON.stringify({
    sends,
    sendsPerSecond: Math.round((sends / wall) * 10) / 10,
    cpuMsPerSend: Math.round((cpuMs / sends) * 100) / 100,
    mainThreadMsPerSend: Math.round(((threadsAfter.main - threads.main) / sends) * 100) / 100,
    otherThreadsMsPerSend: Math.round(((threadsAfter.others - threads.others) / sends) * 100) / 100,
    load: (await import("node:os")).loadavg().map((l) => Math.round(l * 10) / 10),
  }),
);
await app.close();
