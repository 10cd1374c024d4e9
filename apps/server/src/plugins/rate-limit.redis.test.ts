import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { AUTH_MESSAGES } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, csrfFor, PASSWORD, signUp } from "../../test/accounts.ts";
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
          loginAccountLimit: { max: 2, timeWindowMs: 60_000 },
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

  it("the login throttle's counters are shared too: per IP across both login routes, per account", async () => {
    const [a, b] = apps;
    if (!a || !b) throw new Error("apps");
    const loginFrom = async (t: TestApp, ip: string, url: string, body: object) => {
      const csrf = await csrfFor(t);
      return t.app.inject({
        method: "POST",
        url,
        remoteAddress: ip,
        headers: { "csrf-token": csrf.token },
        cookies: { _csrf: csrf.cookie },
        payload: body,
      });
    };
    // One IP: a user login on one instance, an admin login on the other, then refused.
    const nobody = { email: "nobody@example.com", password: "wrong" };
    expect((await loginFrom(a, "203.0.113.7", "/api/auth/login", nobody)).statusCode).toBe(401);
    expect((await loginFrom(b, "203.0.113.7", "/api/admin/login", nobody)).statusCode).toBe(401);
    expect((await loginFrom(a, "203.0.113.7", "/api/admin/login", nobody)).statusCode).toBe(429);

    // One account (the database of instance a; the counters are Redis's): two failures from
    // two IPs on two instances lock those IPs out of it; the owner's IP still signs in.
    const { user } = await signUp(a);
    const wrong = { email: user.email, password: "not the password" };
    expect((await loginFrom(a, "198.51.100.7", "/api/auth/login", wrong)).statusCode).toBe(401);
    expect((await loginFrom(a, "198.51.100.8", "/api/auth/login", wrong)).statusCode).toBe(401);
    const right = { email: user.email, password: PASSWORD };
    expect((await loginFrom(a, "198.51.100.8", "/api/auth/login", right)).statusCode).toBe(429);
    expect((await loginFrom(b, "198.51.100.7", "/api/auth/login", right)).statusCode).toBe(429);
    expect((await loginFrom(a, "198.51.100.99", "/api/auth/login", right)).statusCode).toBe(200);
  });
});
