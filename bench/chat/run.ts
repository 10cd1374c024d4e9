// bench/chat: POST /api/chat/message at 50 concurrent users with a provider that answers at once,
// beside a bare Fastify POST route of the same run (issue 5's goals: p99 of the server's own time
// under 25 ms; the first streamed byte within 5 ms of the provider's first token).
//
// Phase 1 (load): the app with the offline responder (no network: all of the time measured is the
// server's own), autocannon, each connection a user of its own sending into its conversation;
// paced (each user BENCH_USER_RATE messages a second, default 1: the goal's measurement) and
// saturated (each sends again as soon as answered: the capacity, where latency is queueing).
// The server's own time is each request's reply.elapsedTime (an onResponse hook in the server
// process); the client's latency is shown beside it.
// Phase 2 (first token): the app with the OpenAI SDK against a fake provider, beside a bare relay
// of the same provider, split into the way in, the server's own part and the way out
// (first-token.ts).
import { fileURLToPath } from "node:url";
import { roundMs as ms, percentile } from "../lib/latency.ts";
import { measure } from "../lib/measure.ts";
import { spawnServers } from "../lib/spawn-servers.ts";
import { type FirstTokenLegs, measureFirstToken } from "./first-token.ts";
import type { ServersSetup } from "./servers.ts";

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const streamRuns = Number(process.env.BENCH_STREAM_RUNS ?? 500);
/** Messages a second each user sends in the paced run (a brisk chatter sends one every few s). */
const userRate = Number(process.env.BENCH_USER_RATE ?? 1);
const script = fileURLToPath(new URL("./servers.ts", import.meta.url));

async function serverTimes(base: string): Promise<number[]> {
  const response = await fetch(`${base}/bench/server-times`);
  return ((await response.json()) as { times: number[] }).times;
}

async function load(
  name: string,
  url: string,
  setup: ServersSetup,
  body: (i: number) => object,
  seconds: number,
) {
  let next = 0;
  const figures = await measure(name, url, {
    connections,
    durationSeconds: seconds,
    method: "POST",
    requests: [
      {
        setupRequest: (request, context) => {
          const c = context as { user?: number };
          c.user ??= next++ % setup.users.length;
          const user = setup.users[c.user];
          return {
            ...request,
            headers: {
              ...request.headers,
              "content-type": "application/json",
              authorization: `Bearer ${user?.token}`,
              "csrf-token": setup.csrf.token,
              cookie: `_csrf=${setup.csrf.cookie}`,
            },
            body: JSON.stringify(body(c.user)),
          };
        },
      },
    ],
  });
  return {
    name,
    requestsPerSecond: figures.requestsPerSecond,
    clientP50: figures.p50,
    clientP99: figures.p99,
    errors: figures.errors,
  };
}

/**
 * Independent users: each waits a random (exponential) time averaging 1/`rate` s, sends, awaits
 * the answer, and again, for `seconds`. What 50 people chatting at once look like to the server,
 * unlike a tool firing a batch at the top of each second.
 */
async function paced(
  name: string,
  url: string,
  setup: ServersSetup,
  body: (i: number) => object,
  seconds: number,
  rate: number,
) {
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  await Promise.all(
    setup.users.slice(0, connections).map(async (user, i) => {
      for (;;) {
        await new Promise((r) => setTimeout(r, -Math.log(1 - Math.random()) * (1000 / rate)));
        if (performance.now() >= until) return;
        const started = performance.now();
        const response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${user.token}`,
            "csrf-token": setup.csrf.token,
            cookie: `_csrf=${setup.csrf.cookie}`,
          },
          body: JSON.stringify(body(i)),
        });
        await response.arrayBuffer();
        if (!response.ok) errors++;
        latencies.push(performance.now() - started);
      }
    }),
  );
  return {
    name,
    requestsPerSecond: latencies.length / seconds,
    clientP50: ms(percentile(latencies, 50)),
    clientP99: ms(percentile(latencies, 99)),
    errors,
  };
}

// Phase 1: load, offline responder.
const offline = await spawnServers<ServersSetup>(script, {
  OPENAI_API_KEY: "",
  BENCH_USERS: String(connections),
});
let phase1: Array<Record<string, unknown>> = [];
let appP99 = Number.NaN;
try {
  const s = offline.urls;
  const message = (i: number) => ({
    message: "What did you do today, and what are you planning for the weekend?",
    conversationId: s.users[i]?.conversationId,
  });
  // Warm-up: JIT, settings cache, connection pools.
  await load("warm-up", `${s.bare}/bare`, s, message, 2);
  await load("warm-up", `${s.app}/api/chat/message`, s, message, 2);
  await serverTimes(s.bare);
  await serverTimes(s.app);

  // Paced: each of the users sends `userRate` messages a second (the goal's measurement).
  // Saturated: each sends the next as soon as the last is answered (the capacity).
  const rows: Array<Record<string, unknown>> = [];
  for (const [mode, rate] of [
    [`paced, ${userRate}/s per user`, userRate],
    ["saturated, closed loop", undefined],
  ] as const) {
    const run = rate === undefined ? load : paced;
    const bare = await run(
      `bare POST /bare (${mode})`,
      `${s.bare}/bare`,
      s,
      message,
      durationSeconds,
      rate as number,
    );
    const bareTimes = await serverTimes(s.bare);
    const chat = await run(
      `POST /api/chat/message (${mode})`,
      `${s.app}/api/chat/message`,
      s,
      message,
      durationSeconds,
      rate as number,
    );
    const chatTimes = await serverTimes(s.app);
    if (rate !== undefined) appP99 = percentile(chatTimes, 99);
    for (const [row, times] of [
      [bare, bareTimes],
      [chat, chatTimes],
    ] as const) {
      rows.push({
        route: row.name,
        "req/s": Math.round(row.requestsPerSecond),
        "server p50 ms": ms(percentile(times, 50)),
        "server p99 ms": ms(percentile(times, 99)),
        "client p50 ms": row.clientP50,
        "client p99 ms": row.clientP99,
        "errors+non2xx": row.errors,
      });
    }
  }
  phase1 = rows;
} finally {
  await offline.stop();
}

// Phase 2: the first streamed token, through the app and through the bare relay.
const firstToken = await measureFirstToken(script, streamRuns);

console.log(
  `\nPhase 1: ${connections} concurrent users, ${durationSeconds} s each, offline responder`,
);
console.table(phase1);
console.log(
  `server's own time p99 (paced): ${ms(appP99)} ms -> ${appP99 < 25 ? "goal met (< 25 ms)" : "goal NOT met (>= 25 ms)"}`,
);
const summary = (route: string, leg: keyof FirstTokenLegs, values: FirstTokenLegs[]) => {
  const times = values.map((value) => value[leg]);
  return {
    route,
    leg,
    "p50 ms": ms(percentile(times, 50)),
    "p99 ms": ms(percentile(times, 99)),
    "max ms": ms(Math.max(...times)),
  };
};
console.log(
  `\nPhase 2: first streamed token, ${streamRuns} sequential streamed sends each, in turn ` +
    "(the OpenAI SDK -> a local fake provider)\n" +
    "  total: provider writes its first token -> the client reads the first token event\n" +
    "  wayIn: provider writes -> the server holds the answer; server: -> first token event " +
    "written; wayOut: -> the client reads",
);
console.table(
  (["total", "wayIn", "server", "wayOut"] as const).flatMap((leg) => [
    summary("bare relay", leg, firstToken.bare),
    summary("POST /api/chat/message", leg, firstToken.app),
  ]),
);
const total = (values: FirstTokenLegs[], p: number) =>
  percentile(
    values.map((value) => value.total),
    p,
  );
const [appP50, appTotalP99, bareP99] = [
  total(firstToken.app, 50),
  total(firstToken.app, 99),
  total(firstToken.bare, 99),
];
console.log(
  `first token p50 ${ms(appP50)} ms, p99 ${ms(appTotalP99)} ms (bare relay p99 ${ms(bareP99)} ms) -> ` +
    (appTotalP99 < 5
      ? "goal met (< 5 ms at p99)"
      : appP50 < 5
        ? "goal met at p50, not at p99 (< 5 ms)"
        : "goal NOT met (>= 5 ms)"),
);

// Phase 3: a long-time fan, recall on against recall off (long-history.ts, also
// `npm run bench:chat:memory` alone).
if (process.env.BENCH_LONG_HISTORY !== "0") await import("./long-history.ts");
