// Time from `npm start` to a healthy /api/health: a first start on a fresh data directory and a
// second one on the same data (issue 2: a reopen under 3 s), beside a bare Fastify process started
// the same way in the same run. Run `npm run build` first so neither start pays for a build.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");
const runs = Number(process.env.BENCH_RUNS ?? 3);

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function timeToHealthy(
  command: string[],
  path: string,
  env: Record<string, string>,
): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const [executable = "", ...args] = command;
  const child = spawn(executable, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: "ignore",
    detached: true,
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command.join(" ")} exited early`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}${path}`)).ok) {
          return performance.now() - started;
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    // npm runs the script in a child of its own: end the whole process group.
    if (child.pid) process.kill(-child.pid, "SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

const bareServer =
  "const f=(await import('fastify')).default();f.get('/ok',async()=>({ok:true}));" +
  "await f.listen({port:+process.env.PORT,host:'127.0.0.1'})";

const rows: { what: string; ms: number }[] = [];
for (let run = 0; run < runs; run++) {
  const dataDir = mkdtempSync(join(tmpdir(), "twinline-start-"));
  try {
    const baseline = await timeToHealthy(
      ["node", "--input-type=module", "-e", bareServer],
      "/ok",
      {},
    );
    const first = await timeToHealthy(["npm", "start"], "/api/health", { DATA_DIR: dataDir });
    const second = await timeToHealthy(["npm", "start"], "/api/health", { DATA_DIR: dataDir });
    rows.push(
      { what: "bare Fastify process", ms: baseline },
      { what: "npm start, fresh data", ms: first },
      { what: "npm start, same data again", ms: second },
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (what: string) => {
  const values = rows
    .filter((r) => r.what === what)
    .map((r) => r.ms)
    .sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)] ?? Number.NaN;
};
const baseline = median("bare Fastify process");
console.table(
  ["bare Fastify process", "npm start, fresh data", "npm start, same data again"].map((what) => ({
    what,
    "median ms": Math.round(median(what)),
    "x bare": (median(what) / baseline).toFixed(1),
  })),
);
const reopen = median("npm start, same data again");
console.log(
  `reopen: ${(reopen / 1000).toFixed(2)} s (${runs} runs, median) ${reopen < 3000 ? "goal met (< 3 s)" : "goal NOT met (>= 3 s)"}`,
);
