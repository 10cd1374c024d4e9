import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADULT_BIRTH_DATE, adminSession, call, PASSWORD, uniqueEmail } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";
import { fakeGoogle, TEST_GOOGLE_CLIENT_ID } from "./google.ts";

describe("answers that carry a token are never cached (Cache-Control: no-store)", () => {
  let t: TestApp;
  const google = fakeGoogle();
  beforeAll(async () => {
    t = await createTestApp({
      env: { GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID },
      googleVerifier: google.verifier,
    });
  });
  afterAll(() => t?.close());

  it("sign-up, login, Google login, /api/auth/me, password change, admin login and change", async () => {
    const email = uniqueEmail();
    const signup = await call(t, "POST", "/api/auth/signup", {
      body: { name: "N", email, password: PASSWORD, dateOfBirth: ADULT_BIRTH_DATE },
    });
    const login = await call(t, "POST", "/api/auth/login", { body: { email, password: PASSWORD } });
    const token = login.json().token as string;
    const googleLogin = await call(t, "POST", "/api/auth/google", {
      body: {
        token: await google.sign({ sub: `g-${Date.now()}`, email: uniqueEmail("g") }),
        dateOfBirth: ADULT_BIRTH_DATE,
      },
    });
    const me = await call(t, "GET", "/api/auth/me", { token });
    const changed = await call(t, "PUT", "/api/users/password", {
      token,
      body: { currentPassword: PASSWORD, newPassword: "another long password" },
    });
    const admin = await adminSession(t);
    const adminLogin = await call(t, "POST", "/api/admin/login", {
      body: { email: admin.email, password: admin.password },
    });
    const adminChanged = await call(t, "PUT", "/api/admin/change-password", {
      token: admin.token,
      body: { currentPassword: admin.password, newPassword: "another long password" },
    });
    const answers = { signup, login, googleLogin, me, changed, adminLogin, adminChanged };
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.statusCode, `${name}: ${answer.body}`).toBeLessThan(300);
      expect(answer.headers["cache-control"], name).toBe("no-store");
    }
    // A refused login says no-store too: nothing of a sign-in is kept.
    const wrong = await call(t, "POST", "/api/auth/login", { body: { email, password: "x" } });
    expect(wrong.headers["cache-control"]).toBe("no-store");
    // Public answers keep their own caching.
    const config = await call(t, "GET", "/api/auth/config");
    expect(config.headers["cache-control"]).not.toBe("no-store");
  });
});
