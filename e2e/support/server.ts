import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const repoRoot = resolve(import.meta.dirname, "../..");
const serverEntry = join(repoRoot, "apps/server/dist/main.js");

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Everything the server printed so far, for failure messages. */
  output(): string;
  /** SIGTERM, as a container stop sends it; resolves with the exit code once it has exited. */
  stop(): Promise<number | null>;
}

export interface StartServerOptions {
  env?: Record<string, string>;
  /** Reuse a data directory, e.g. to reopen what an earlier server wrote. */
  dataDir?: string;
  /** How long the server may take to answer /api/health (default 30 s). */
  healthTimeoutMs?: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolvePort(address.port) : reject(address),
      );
    });
  });
}

async function waitForHealth(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode} before it was healthy:\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy within ${timeoutMs} ms:\n${output()}`);
}

/** Starts the built app (npm run build first) as `npm start` would, on its own data directory. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "twinline-e2e-")));
  let log = "";
  const child = spawn(process.execPath, [serverEntry], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    log += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  const output = () => log;
  try {
    await waitForHealth(url, child, output, options.healthTimeoutMs);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    url,
    dataDir,
    output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
      return child.exitCode;
    },
  };
}
