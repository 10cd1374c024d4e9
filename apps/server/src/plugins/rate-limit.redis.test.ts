import { randomBytes } from "node:crypto";
import { tooManyAttemptsMessage } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADULT_BIRTH_DATE, call, csrfFor, PASSWORD, uniqueEmail } from "../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";
import { hasRedisServer, type RedisServer, startRedisServer } from "../../test/redis-server.ts";
import { DEVICE_COOKIE_PREFIX } from "./login-throttle.ts";

// Needs a redis-server binary; without one there is nothing to share the counters through.
describe.skipIf(!hasRedisServer())("rate limits shared through Redis (REDIS_URL)", () => {
  let redis: RedisServer | undefined;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    // Both instances of one deployment: one key prefix, of this run alone.
    const rateLimitKeyPrefix = `test-${randomBytes(4).toString("hex")}-`;
    for (let i = 0; i < 2; i++) {
      apps.push(
        await createTestApp({
          env: { REDIS_URL: redis.url },
          rateLimitKeyPrefix,
          authRateLimit: { max: 2, timeWindowMs: 60_000 },
          loginAccountLimit: { max: 2, timeWindowMs: 60_000 },
        }),
      );
    }
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await redis?.kill();
  });

  it("two instances count one client's attempts together", async () => {
    const [a, b] = apps;
    if (!a || !b) throw new Error("apps");
    const body = { email: "someone@example.com", password: "wrong" };
    expect((await call(a, "POST", "/api/auth/login", { body })).statusCode).toBe(401);
    expect((await call(b, "POST", "/api/auth/login", { body })).statusCode).toBe(401);
    const limited = await call(a, "POST", "/api/auth/login", { body });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(
      tooManyAttemptsMessage(Number(limited.headers["retry-after"])),
    );
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

    // One account (the database of instance a; the counters are Redis's): two strangers'
    // attempts from two addresses on two instances spend its budget; the owner's device, which
    // signed up, still signs in.
    const email = uniqueEmail();
    const csrf = await csrfFor(a);
    const signup = await a.app.inject({
      method: "POST",
      url: "/api/auth/signup",
      remoteAddress: "198.51.100.99",
      headers: { "csrf-token": csrf.token },
      cookies: { _csrf: csrf.cookie },
      payload: { name: "Owner", email, password: PASSWORD, dateOfBirth: ADULT_BIRTH_DATE },
    });
    const cookie = signup.cookies.find((c) => c.name.startsWith(DEVICE_COOKIE_PREFIX));
    const wrong = { email, password: "not the password" };
    expect((await loginFrom(a, "198.51.100.7", "/api/auth/login", wrong)).statusCode).toBe(401);
    expect((await loginFrom(b, "198.51.100.8", "/api/auth/login", wrong)).statusCode).toBe(401);
    const right = { email, password: PASSWORD };
    expect((await loginFrom(a, "198.51.100.9", "/api/auth/login", right)).statusCode).toBe(429);
    expect((await loginFrom(b, "198.51.100.7", "/api/auth/login", right)).statusCode).toBe(429);
    const owner = await a.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: "198.51.100.7",
      headers: { "csrf-token": csrf.token },
      cookies: { _csrf: csrf.cookie, [cookie?.name ?? ""]: cookie?.value ?? "" },
      payload: right,
    });
    expect(owner.statusCode, owner.body).toBe(200);
  });
});
