import { AUTH_MESSAGES } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminSession,
  call,
  csrfFor,
  messageOf,
  PASSWORD,
  signUp,
  uniqueEmail,
} from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";

describe("rate limits on the sign-in family", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ authRateLimit: { max: 3, timeWindowMs: 60_000 } });
  });
  afterAll(() => t?.close());

  const routes: Array<[string, string, unknown]> = [
    ["POST", "/api/auth/signup", { name: "A", email: "bad", password: "x" }],
    ["POST", "/api/auth/google", { token: "x" }],
    ["POST", "/api/auth/forgotpassword", { email: "a@example.com" }],
    ["PUT", `/api/auth/resetpassword/${"A".repeat(30)}`, { password: "123456" }],
  ];

  for (const [method, url, body] of routes) {
    it(`${method} ${url.replace(/A{30}/, "{token}")}: 429 with the message after the limit`, async () => {
      for (let i = 0; i < 3; i++) {
        const response = await call(t, method as "POST", url, { body });
        expect(response.statusCode).not.toBe(429);
      }
      const limited = await call(t, method as "POST", url, { body });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        success: false,
        message: AUTH_MESSAGES.tooManyAttempts,
      });
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    });
  }

  it("counts each route apart, and leaves other routes alone", async () => {
    const response = await call(t, "GET", "/api/auth/config");
    expect(response.statusCode).toBe(200);
    // Sign-up was limited above (any body): a valid one is limited too, by IP and route.
    const signup = await call(t, "POST", "/api/auth/signup", {
      body: { name: "A", email: uniqueEmail(), password: "long enough pw" },
    });
    expect(signup.statusCode).toBe(429);
    expect(messageOf(signup)).toBe(AUTH_MESSAGES.tooManyAttempts);
  });
});

/** A login from a given client IP. */
async function loginFrom(
  t: TestApp,
  ip: string,
  url: "/api/auth/login" | "/api/admin/login",
  body: { email: string; password: string },
) {
  const csrf = await csrfFor(t);
  return t.app.inject({
    method: "POST",
    url,
    remoteAddress: ip,
    headers: { "csrf-token": csrf.token },
    cookies: { _csrf: csrf.cookie },
    payload: body,
  });
}

describe("the login throttle: one per-IP budget for both login routes, failures per account", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      authRateLimit: { max: 4, timeWindowMs: 60_000 },
      loginAccountLimit: { max: 3, timeWindowMs: 60_000 },
    });
  });
  afterAll(() => t?.close());

  it("the user and the admin login share one budget per IP", async () => {
    const ip = "203.0.113.1";
    const body = { email: uniqueEmail(), password: "wrong" };
    for (let i = 0; i < 2; i++) {
      expect((await loginFrom(t, ip, "/api/auth/login", body)).statusCode).toBe(401);
      expect(
        (await loginFrom(t, ip, "/api/admin/login", { ...body, email: uniqueEmail() })).statusCode,
      ).toBe(401);
    }
    for (const url of ["/api/auth/login", "/api/admin/login"] as const) {
      const limited = await loginFrom(t, ip, url, { ...body, email: uniqueEmail() });
      expect(limited.statusCode).toBe(429);
      expect(messageOf(limited)).toBe(AUTH_MESSAGES.tooManyAttempts);
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    }
    // Another IP has its own budget.
    expect((await loginFrom(t, "203.0.113.2", "/api/auth/login", body)).statusCode).toBe(401);
  });

  it("failures on one account lock out the failing IPs, never a correct password from another", async () => {
    const { user } = await signUp(t);
    const wrong = { email: user.email, password: "not the password" };
    // Three failures from two attackers' IPs reach the account's limit.
    expect((await loginFrom(t, "198.51.100.1", "/api/auth/login", wrong)).statusCode).toBe(401);
    expect((await loginFrom(t, "198.51.100.1", "/api/auth/login", wrong)).statusCode).toBe(401);
    expect((await loginFrom(t, "198.51.100.2", "/api/auth/login", wrong)).statusCode).toBe(401);
    // The failing IPs are refused before their password is checked, even a right one.
    for (const ip of ["198.51.100.1", "198.51.100.2"]) {
      const refused = await loginFrom(t, ip, "/api/auth/login", {
        email: user.email,
        password: PASSWORD,
      });
      expect(refused.statusCode).toBe(429);
    }
    // The owner, from an IP without a failure on the account, signs in.
    const owner = await loginFrom(t, "198.51.100.9", "/api/auth/login", {
      email: user.email,
      password: PASSWORD,
    });
    expect(owner.statusCode, owner.body).toBe(200);
    // Another account is not touched by these failures.
    const other = await signUp(t);
    const fine = await loginFrom(t, "198.51.100.1", "/api/auth/login", {
      email: other.user.email,
      password: PASSWORD,
    });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it("the admin login is throttled per account the same way", async () => {
    const admin = await adminSession(t);
    const wrong = { email: admin.email, password: "not the password" };
    for (let i = 0; i < 3; i++) {
      expect((await loginFrom(t, `192.0.2.${i + 1}`, "/api/admin/login", wrong)).statusCode).toBe(
        401,
      );
    }
    const attacker = await loginFrom(t, "192.0.2.1", "/api/admin/login", {
      email: admin.email,
      password: admin.password,
    });
    expect(attacker.statusCode).toBe(429);
    const owner = await loginFrom(t, "192.0.2.200", "/api/admin/login", {
      email: admin.email,
      password: admin.password,
    });
    expect(owner.statusCode, owner.body).toBe(200);
  });
});
