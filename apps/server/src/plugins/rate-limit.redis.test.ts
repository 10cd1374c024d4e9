import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { AUTH_MESSAGES } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";

const REDIS_SERVER = "/usr/bin/redis-server";

async function freePort(): Promise<number> {
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

// Needs a redis-server binary; without one there is nothing to share the counters through.
describe.skipIf(!existsSync(REDIS_SERVER))("rate limits shared through Redis (REDIS_URL)", () => {
  let redis: ChildProcess | undefined;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    const port = await freePort();
    redis = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", ""], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("redis-server did not start")), 10_000);
      redis?.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    for (let i = 0; i < 2; i++) {
      apps.push(
        await createTestApp({
          env: { REDIS_URL: `redis://127.0.0.1:${port}` },
          authRateLimit: { max: 2, timeWindowMs: 60_000 },
        }),
      );
    }
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    redis?.kill();
  });

  it("two instances count one client's attempts together", async () => {
    const [a, b] = apps;
    if (!a || !b) throw new Error("apps");
    const body = { email: "someone@example.com", password: "wrong" };
    expect((await call(a, "POST", "/api/auth/login", { body })).statusCode).toBe(401);
    expect((await call(b, "POST", "/api/auth/login", { body })).statusCode).toBe(401);
    const limited = await call(a, "POST", "/api/auth/login", { body });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(AUTH_MESSAGES.tooManyAttempts);
    expect((await call(b, "POST", "/api/auth/login", { body })).statusCode).toBe(429);
  });
});
