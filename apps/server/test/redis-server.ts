import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";

export const REDIS_SERVER = "/usr/bin/redis-server";

/** Whether a redis-server binary is there to start (the Redis tests skip without one). */
export const hasRedisServer = () => existsSync(REDIS_SERVER);

/** A port nothing listens on (just now). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  port: number;
  url: string;
  /** Kills it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Freezes it (SIGSTOP): connected, but answering nothing, as a hung server. */
  freeze(): void;
  /** Lets a frozen server go on (SIGCONT). */
  thaw(): void;
}

/** A private redis-server on a random loopback port, no persistence; ready when this resolves. */
export async function startRedisServer(port?: number): Promise<RedisServer> {
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ["--port", String(chosen), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("redis-server did not start")), 10_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", () => reject(new Error("redis-server exited")));
  });
  return {
    port: chosen,
    url: `redis://127.0.0.1:${chosen}`,
    freeze: () => child.kill("SIGSTOP"),
    thaw: () => child.kill("SIGCONT"),
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}
