// Before/after of a start, alternated in one session (issue 28 item 5): for each `label=entry`
// (a dist/main.js, e.g. a build copied aside, or a .sh that execs one), a fresh start and a
// reopen of the same DATA_DIR, beside a bare Fastify process in each round. Per start: the wall
// time to a healthy /api/health, the main thread's CPU time then (/proc/PID/task/PID/stat: the
// critical path; the PGlite thread opens in parallel) and the whole process's CPU time. On a
// shared, loaded machine the wall time is noise; read the CPU figures as ratios to the bare one.
//   node bench/start/main-thread-cpu.mjs 5 before=apps/server/dist-before/main.js after=apps/server/dist/main.js
// Linux only (/proc).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { cpuMsOfStat } from "../lib/proc-cpu.mjs";

const root = resolve(import.meta.dirname, "../..");
const runs = Number(process.argv[2]);
const entries = process.argv.slice(3).map((s) => s.split("="));
async function freePort() {
  return new Promise((d) => {
    const p = createServer().listen(0, "127.0.0.1", () => {
      const a = p.address();
      p.close(() => d(a.port));
    });
  });
}
async function start(args, path, env) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(
    args[0].endsWith(".sh") ? args[0] : "node",
    args[0].endsWith(".sh") ? [] : args,
    {
      cwd: root,
      env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited ${args.join(" ")}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}${path}`)).ok) {
          const wall = performance.now() - t0;
          return {
            wall,
            main: cpuMsOfStat(`/proc/${child.pid}/task/${child.pid}/stat`),
            proc: cpuMsOfStat(`/proc/${child.pid}/stat`),
          };
        }
      } catch {}
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
  }
}
const bare =
  "const f=(await import('fastify')).default();f.get('/ok',async()=>({ok:true}));await f.listen({port:+process.env.PORT,host:'127.0.0.1'})";
const rows = [];
for (let i = 0; i < runs; i++) {
  rows.push({ what: "bare", ...(await start(["--input-type=module", "-e", bare], "/ok", {})) });
  for (const [label, entry] of entries) {
    const dir = mkdtempSync(join(tmpdir(), "r28-"));
    try {
      rows.push({
        what: `${label} fresh`,
        ...(await start([entry], "/api/health", { DATA_DIR: dir })),
      });
      rows.push({
        what: `${label} reopen`,
        ...(await start([entry], "/api/health", { DATA_DIR: dir })),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
const med = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const whats = [...new Set(rows.map((r) => r.what))];
const b = {
  wall: med(rows.filter((r) => r.what === "bare").map((r) => r.wall)),
  main: med(rows.filter((r) => r.what === "bare").map((r) => r.main)),
};
for (const w of whats) {
  const rs = rows.filter((r) => r.what === w);
  const m = (k) => med(rs.map((r) => r[k]));
  console.log(
    `${w.padEnd(16)} wall ${Math.round(m("wall"))} ms (${(m("wall") / b.wall).toFixed(1)}x)  main CPU ${m("main")} ms (${(m("main") / b.main).toFixed(1)}x)  process CPU ${m("proc")} ms   [walls ${rs.map((r) => Math.round(r.wall)).join(",")}; mains ${rs.map((r) => r.main).join(",")}]`,
  );
}
