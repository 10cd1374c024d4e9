import { randomBytes } from "node:crypto";
import { tooManyAttemptsMessage, VOICE_MESSAGES } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADULT_BIRTH_DATE, call, uniqueEmail } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";
import { freePort, hasRedisServer, type RedisServer, startRedisServer } from "./redis-server.ts";

const LIMIT = { max: 3, timeWindowMs: 60_000 };

const health = async (t: TestApp) => {
  const answer = await t.app.inject({ method: "GET", url: "/api/health" });
  return { status: answer.statusCode, body: answer.json() };
};

/** Sign-ups from one address until refused: how many went through, and the refusal. */
async function signUpsUntilRefused(t: TestApp, tries: number) {
  let created = 0;
  for (let i = 0; i < tries; i++) {
    const answer = await call(t, "POST", "/api/auth/signup", {
      body: {
        name: "Flood",
        email: uniqueEmail("flood"),
        password: "long enough password",
        dateOfBirth: ADULT_BIRTH_DATE,
      },
    });
    if (answer.statusCode === 429) {
      expect(answer.json().message).toBe(
        tooManyAttemptsMessage(Number(answer.headers["retry-after"])),
      );
      return { created, refused: true };
    }
    expect(answer.statusCode, answer.body).toBe(201);
    created += 1;
  }
  return { created, refused: false };
}

/** Wrong passwords on one account, each from a new address, until refused. */
async function guessesUntilRefused(t: TestApp, email: string, tries: number) {
  for (let i = 0; i < tries; i++) {
    const answer = await call(t, "POST", "/api/auth/login", {
      body: { email, password: `guess ${i}` },
      headers: {},
    });
    if (answer.statusCode === 429) return i;
    expect(answer.statusCode).toBe(401);
  }
  return tries;
}

const options = (redisUrl: string) => ({
  env: { REDIS_URL: redisUrl, VOICE_RATE_LIMIT_PER_MINUTE: "2" },
  authRateLimit: LIMIT,
  loginAccountLimit: LIMIT,
  rateLimitKeyPrefix: `test-${randomBytes(4).toString("hex")}-`,
});

describe("limits fail closed: REDIS_URL at a port where nothing listens", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(options(`redis://127.0.0.1:${await freePort()}`));
  });
  afterAll(() => t?.close());

  it("the app starts, serves, and says its limits count in the process", async () => {
    const answer = await health(t);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: "degraded",
      database: { status: "up" },
      rateLimits: { store: "redis", status: "degraded" },
    });
  });

  it("route limits still hold: one address gets its budget of sign-ups, then 429", async () => {
    expect(await signUpsUntilRefused(t, 10)).toEqual({ created: LIMIT.max, refused: true });
  });

  it("the login throttle still holds: guesses on one account stop at its budget", async () => {
    expect(await guessesUntilRefused(t, uniqueEmail("victim"), 10)).toBe(LIMIT.max);
  });

  it("the voice calls' per-user limit (a route limit of the same store) still holds", async () => {
    // Signed up through the service: this address's sign-ups are spent above.
    const { token } = await t.app.auth.signup({
      name: "Caller",
      email: uniqueEmail("caller"),
      password: "long enough password",
      dateOfBirth: ADULT_BIRTH_DATE,
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const answer = await call(t, "POST", "/api/voice-call/process", {
        token,
        body: { text: "Hello there!" },
      });
      statuses.push(answer.statusCode);
      if (answer.statusCode === 429)
        expect(answer.json().message).toBe(VOICE_MESSAGES.tooManyRequests);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});

describe.skipIf(!hasRedisServer())("limits fail closed: Redis going away mid-run", () => {
  let redis: RedisServer;
  let t: TestApp;
  beforeAll(async () => {
    redis = await startRedisServer();
    t = await createTestApp(options(redis.url));
  });
  afterAll(async () => {
    await t?.close();
    await redis?.kill();
  });

  it("counts in Redis while it is up, in the process once it dies, and never lets a flood through", async () => {
    expect((await health(t)).body).toMatchObject({
      status: "ok",
      rateLimits: { store: "redis", status: "up" },
    });
    // Two of the three sign-ups are spent while Redis counts.
    expect(await signUpsUntilRefused(t, 2)).toEqual({ created: 2, refused: false });

    await redis.kill();
    // The process's own store takes over: a fresh budget at most, then 429 again.
    const after = await signUpsUntilRefused(t, 15);
    expect(after.refused).toBe(true);
    expect(after.created).toBeLessThanOrEqual(LIMIT.max);
    expect(await guessesUntilRefused(t, uniqueEmail("victim"), 15)).toBe(LIMIT.max);
    const down = await health(t);
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({
      status: "degraded",
      rateLimits: { store: "redis", status: "degraded" },
    });
  });

  it("reports Redis up again once it is back", async () => {
    redis = await startRedisServer(redis.port);
    // The client reconnects on its own schedule; the test waits for it, not for a time.
    let body = (await health(t)).body;
    for (let i = 0; i < 100 && body.rateLimits.status !== "up"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      // A count reaches Redis again and clears the flag.
      await call(t, "POST", "/api/auth/forgotpassword", { body: { email: uniqueEmail() } });
      body = (await health(t)).body;
    }
    expect(body.rateLimits).toEqual({ store: "redis", status: "up" });
  });
});

describe.skipIf(!hasRedisServer())("limits fail closed: a Redis that hangs", () => {
  let redis: RedisServer;
  let t: TestApp;
  beforeAll(async () => {
    redis = await startRedisServer();
    t = await createTestApp(options(redis.url));
  });
  afterAll(async () => {
    redis?.thaw();
    await t?.close();
    await redis?.kill();
  });

  it("past the command timeout the process counts: the limits hold, health says degraded", async () => {
    expect((await health(t)).body.rateLimits).toEqual({ store: "redis", status: "up" });
    redis.freeze();
    const flood = await signUpsUntilRefused(t, 10);
    expect(flood).toEqual({ created: LIMIT.max, refused: true });
    expect(await guessesUntilRefused(t, uniqueEmail("victim"), 10)).toBe(LIMIT.max);
    const answer = await health(t);
    expect(answer.status).toBe(200);
    expect(answer.body.rateLimits).toEqual({ store: "redis", status: "degraded" });
  });
});
