// Runs in its own process so the load generator does not share the server's event loop.
// Prints one JSON line { bare, app } with the two base URLs, then serves until killed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";
import { announceAndServe } from "../lib/spawn-servers.ts";

const bare = Fastify({ logger: false });
bare.get("/bare", async () => ({ ok: true }));
const bareUrl = await bare.listen({ port: 0, host: "127.0.0.1" });

const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), "twinline-bench-"));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" });
const app = await buildApp({ config, logger: false });
const appUrl = await app.listen({ port: 0, host: "127.0.0.1" });

announceAndServe({ bare: bareUrl, app: appUrl }, () => Promise.all([bare.close(), app.close()]));
