// GET /api/settings against a bare Fastify route, measured in the same run (issue 2's goal:
// settings at 60% or more of the bare route's throughput).
import { fileURLToPath } from "node:url";
import { measure, printComparison } from "../lib/measure.ts";
import { spawnServers } from "../lib/spawn-servers.ts";

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);

const servers = await spawnServers<{ bare: string; app: string }>(
  fileURLToPath(new URL("./servers.ts", import.meta.url)),
);
try {
  const load = { connections, durationSeconds };
  // Warm both up so the JIT and the settings cache are hot before anything is counted.
  await measure("warm-up", `${servers.urls.bare}/bare`, { connections, durationSeconds: 2 });
  await measure("warm-up", `${servers.urls.app}/api/settings`, { connections, durationSeconds: 2 });

  const baseline = await measure("bare Fastify GET /bare", `${servers.urls.bare}/bare`, load);
  const settings = await measure("GET /api/settings", `${servers.urls.app}/api/settings`, load);
  console.log(`${connections} connections, ${durationSeconds} s each`);
  const ratio = printComparison(settings, baseline);
  console.log(ratio >= 0.6 ? "goal met (>= 60%)" : "goal NOT met (< 60%)");
} finally {
  await servers.stop();
}
