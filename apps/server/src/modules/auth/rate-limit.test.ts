import { AUTH_MESSAGES } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, messageOf, uniqueEmail } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";

describe("rate limits on the sign-in family", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ authRateLimit: { max: 3, timeWindowMs: 60_000 } });
  });
  afterAll(() => t?.close());

  const routes: Array<[string, string, unknown]> = [
    ["POST", "/api/auth/login", { email: "a@example.com", password: "x" }],
    ["POST", "/api/auth/signup", { name: "A", email: "bad", password: "x" }],
    ["POST", "/api/auth/google", { token: "x" }],
    ["POST", "/api/auth/forgotpassword", { email: "a@example.com" }],
    ["PUT", `/api/auth/resetpassword/${"A".repeat(30)}`, { password: "123456" }],
    ["POST", "/api/admin/login", { email: "a@example.com", password: "x" }],
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
