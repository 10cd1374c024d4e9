import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** Starts a servers script under tsx in a child process and reads the URLs it prints. */
export async function spawnServers<T>(script: string, env: Record<string, string> = {}) {
  // BENCH_SERVER_NODE_ARGS: node flags for the servers' process alone (e.g. --cpu-prof).
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const urls = await new Promise<T>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
    lines.once("line", (line) => resolve(JSON.parse(line) as T));
  });
  return {
    urls,
    /** The servers' process (its CPU time: bench/observe). */
    pid: child.pid,
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * The servers script's side of spawnServers: prints `setup` as the one JSON line it reads, then
 * serves until SIGTERM or SIGINT, when `close` runs before the process exits.
 */
export function announceAndServe(setup: object, close: () => Promise<unknown>) {
  console.log(JSON.stringify(setup));
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, async () => {
      await close();
      process.exit(0);
    });
  }
}
