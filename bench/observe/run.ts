// bench/observe: what metrics and traces cost the chat (issue 28: under 5% of its throughput).
// Two app processes of bench/chat/servers.ts (offline responder: all of the time is the server's
// own), one with nothing switched on, one with METRICS_TOKEN and OTEL_EXPORTER_OTLP_ENDPOINT (a
// local OTLP/HTTP receiver in this process that counts what arrives), loaded in turn with
// POST /api/chat/message at 50 users, saturated (each sends again as soon as answered), off and
// on alternating for BENCH_ROUNDS rounds so the machine's drift falls on both alike. The figure is
// the sum of "on" requests over the sum of "off" ones, and, steadier on a shared machine, each
// server process's CPU time per chat send (/proc, the PGlite thread included) "on" over "off"; a
// scrape of /metrics and the spans received prove the "on" server really recorded.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { ServersSetup } from "../chat/servers.ts";
import { type Figures, measure } from "../lib/measure.ts";
import { spawnServers } from "../lib/spawn-servers.ts";

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const script = fileURLToPath(new URL("../chat/servers.ts", import.meta.url));
const METRICS_TOKEN = "bench-observe-metrics-token-0123456789";

const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

/** A process's CPU time so far (user + system, every thread), in ms, from /proc/<pid>/stat. */
function cpuMs(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command name (which may hold spaces), from field 3 on.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** The OTLP/HTTP receiver: counts the spans of every export (JSON) and answers 200. */
async function startOtlpSink() {
  let spans = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: unknown[] }> }>;
      };
      for (const resource of body.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) spans += scope.spans?.length ?? 0;
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function chatLoad(name: string, setup: ServersSetup, seconds: number): Promise<Figures> {
  let next = 0;
  return measure(name, `${setup.app}/api/chat/message`, {
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
            body: JSON.stringify({
              message: "What did you do today, and what are you planning for the weekend?",
              conversationId: user?.conversationId,
            }),
          };
        },
      },
    ],
  });
}

const sink = await startOtlpSink();
const common = { OPENAI_API_KEY: "", BENCH_USERS: String(connections) };
const off = await spawnServers<ServersSetup>(script, {
  ...common,
  METRICS_TOKEN: "",
  OTEL_EXPORTER_OTLP_ENDPOINT: "",
});
const on = await spawnServers<ServersSetup>(script, {
  ...common,
  METRICS_TOKEN,
  OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
});
try {
  // Warm-up: JIT, settings cache, pools.
  await chatLoad("warm-up", off.urls, 2);
  await chatLoad("warm-up", on.urls, 2);

  const rows: Array<Record<string, unknown>> = [];
  const totals = { off: 0, on: 0 };
  const cpu = { off: { ms: 0, sends: 0 }, on: { ms: 0, sends: 0 } };
  for (let round = 1; round <= rounds; round++) {
    // Which goes first alternates too: neither always runs on the warmer (or busier) machine.
    const order = round % 2 === 1 ? (["off", "on"] as const) : (["on", "off"] as const);
    for (const mode of order) {
      const servers = mode === "off" ? off : on;
      const cpuBefore = cpuMs(servers.pid);
      const figures = await chatLoad(`${mode}, round ${round}`, servers.urls, durationSeconds);
      const cpuSpent = cpuMs(servers.pid) - cpuBefore;
      const sends = figures.requestsPerSecond * durationSeconds;
      totals[mode] += figures.requestsPerSecond;
      cpu[mode].ms += cpuSpent;
      cpu[mode].sends += sends;
      rows.push({
        run: figures.name,
        "req/s": Math.round(figures.requestsPerSecond),
        "server CPU ms per send": Math.round((cpuSpent / sends) * 100) / 100,
        "client p50 ms": figures.p50,
        "client p99 ms": figures.p99,
        "errors+non2xx": figures.errors,
      });
    }
  }
  const scrape = await fetch(`${on.urls.app}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const exposition = await scrape.text();
  const counted = exposition
    .split("\n")
    .filter((line) =>
      line.startsWith(
        'http_request_duration_seconds_count{method="POST",route="/api/chat/message"',
      ),
    )
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);

  console.log(
    `\nPOST /api/chat/message, ${connections} users saturated, ${durationSeconds} s a run, ${rounds} rounds`,
  );
  console.table(rows);
  const ratio = totals.on / totals.off;
  console.log(
    `metrics and traces on: ${(ratio * 100).toFixed(1)}% of the throughput with them off ` +
      `(cost ${((1 - ratio) * 100).toFixed(1)}%) -> ${ratio >= 0.95 ? "goal met (< 5%)" : "goal NOT met (>= 5%)"}`,
  );
  const perSend = (mode: "off" | "on") => cpu[mode].ms / cpu[mode].sends;
  const cpuRatio = perSend("on") / perSend("off");
  console.log(
    `server CPU per send: on ${perSend("on").toFixed(2)} ms, off ${perSend("off").toFixed(2)} ms ` +
      `-> on costs ${((cpuRatio - 1) * 100).toFixed(1)}% more CPU per send ` +
      `(throughput at saturation ${((1 / cpuRatio) * 100).toFixed(1)}% of off) -> ` +
      `${cpuRatio <= 1 / 0.95 ? "goal met (< 5%)" : "goal NOT met (>= 5%)"}`,
  );
  console.log(
    `"on" server: /metrics ${scrape.status}, ${counted} chat sends counted; ${sink.spans()} spans received so far`,
  );
  if (scrape.status !== 200 || counted === 0) process.exitCode = 1;
} finally {
  await Promise.all([off.stop(), on.stop()]);
  await sink.close();
}
