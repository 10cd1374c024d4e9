import { AUTH_MESSAGES, authResponseSchema } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADULT_BIRTH_DATE,
  adminSession,
  call,
  messageOf,
  signUp,
  uniqueEmail,
} from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { type FakeGoogle, fakeGoogle, TEST_GOOGLE_CLIENT_ID } from "../../../test/google.ts";
import { creditLedger } from "../../db/schema/index.ts";
import { GOOGLE_MESSAGES } from "./service.ts";

describe("POST /api/auth/google", () => {
  let t: TestApp;
  let google: FakeGoogle;
  let googleIds = 0;
  const nextGoogleId = () => `g-${Date.now()}-${++googleIds}`;

  beforeAll(async () => {
    google = fakeGoogle();
    t = await createTestApp({
      env: { GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID },
      googleVerifier: google.verifier,
    });
  });
  afterAll(() => t?.close());

  /** The Google button's call; a new account also carries the sign-up form's date of birth. */
  const signIn = async (token: string, dateOfBirth?: string) =>
    call(t, "POST", "/api/auth/google", {
      body: { token, ...(dateOfBirth === undefined ? {} : { dateOfBirth }) },
    });

  it("publishes the client id for the web's Google button, and allows Google in the CSP", async () => {
    expect((await call(t, "GET", "/api/auth/config")).json()).toEqual({
      googleClientId: TEST_GOOGLE_CLIENT_ID,
    });
    const page = await t.app.inject({ method: "GET", url: "/" });
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain(
      "script-src 'self' 'wasm-unsafe-eval' https://accounts.google.com/gsi/client",
    );
    expect(csp).toContain("frame-src https://accounts.google.com/gsi/");
    expect(csp).toContain("https://accounts.google.com/gsi/style");
  });

  it("creates an account with the sign-up credits, then signs the same account in again", async () => {
    const email = uniqueEmail("g");
    const sub = nextGoogleId();
    const token = await google.sign({
      sub,
      email,
      name: "Grace Hopper",
      picture: "https://x/p.png",
    });
    const first = await signIn(token, ADULT_BIRTH_DATE);
    expect(first.statusCode, first.body).toBe(200);
    const body = authResponseSchema.parse(first.json());
    expect(body.user).toMatchObject({
      email,
      name: "Grace Hopper",
      googleId: sub,
      profileImage: "https://x/p.png",
      credits: 100,
    });
    const ledger = await t.app.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, body.user.id));
    expect(ledger.map((row) => row.sourceKey)).toEqual([`signup:${body.user.id}`]);

    const again = await signIn(await google.sign({ sub, email }));
    expect(again.json().user.id).toBe(body.user.id);
    expect(again.json().user.credits).toBe(100);
  });

  it("links an existing e-mail account to Google, keeping its password sign-in", async () => {
    const existing = await signUp(t);
    const sub = nextGoogleId();
    const response = await signIn(
      await google.sign({ sub, email: existing.user.email.toUpperCase() }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ id: existing.user.id, googleId: sub });
    const login = await call(t, "POST", "/api/auth/login", {
      body: { email: existing.user.email, password: existing.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it("refuses a token for another audience, an expired one, and an unverified e-mail", async () => {
    const email = uniqueEmail("g");
    const wrongAudience = await signIn(
      await google.sign({ sub: nextGoogleId(), email }, { audience: "someone-else" }),
    );
    expect(wrongAudience.statusCode).toBe(401);
    expect(messageOf(wrongAudience)).toBe(GOOGLE_MESSAGES.invalidToken);

    const expired = await signIn(
      await google.sign({ sub: nextGoogleId(), email }, { expiresInSeconds: -3600 }),
    );
    expect(expired.statusCode).toBe(401);
    expect(messageOf(expired)).toBe(GOOGLE_MESSAGES.invalidToken);

    const wrongIssuer = await signIn(
      await google.sign({ sub: nextGoogleId(), email, iss: "https://evil.example" }),
    );
    expect(wrongIssuer.statusCode).toBe(401);

    const otherKey = await fakeGoogle().sign({ sub: nextGoogleId(), email });
    expect((await signIn(otherKey)).statusCode).toBe(401);

    const unverified = await signIn(
      await google.sign({ sub: nextGoogleId(), email, email_verified: false }),
    );
    expect(unverified.statusCode).toBe(401);
    expect(messageOf(unverified)).toBe(GOOGLE_MESSAGES.emailNotVerified);

    const garbage = await signIn("not-a-jwt");
    expect(garbage.statusCode).toBe(401);
    const empty = await signIn("");
    expect(empty.statusCode).toBe(400);
    expect(messageOf(empty)).toMatch(/^token: /);
  });

  it("refuses a deactivated account with 403", async () => {
    const sub = nextGoogleId();
    const email = uniqueEmail("g");
    const created = await signIn(await google.sign({ sub, email }), ADULT_BIRTH_DATE);
    const admin = await adminSession(t);
    await call(t, "PUT", `/api/admin/users/${created.json().user.id}/status`, {
      token: admin.token,
      body: { action: "deactivate" },
    });
    const response = await signIn(await google.sign({ sub, email }));
    expect(response.statusCode).toBe(403);
    expect(messageOf(response)).toBe(AUTH_MESSAGES.accountDeactivated);
  });

  it("tells a Google-only account to use Google to manage its password", async () => {
    const created = await signIn(
      await google.sign({ sub: nextGoogleId(), email: uniqueEmail("g") }),
      ADULT_BIRTH_DATE,
    );
    const response = await call(t, "PUT", "/api/users/password", {
      token: created.json().token,
      body: { currentPassword: "anything", newPassword: "a long new password" },
    });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(AUTH_MESSAGES.googleOnlyAccount);
    // And it has no password to log in with.
    const login = await call(t, "POST", "/api/auth/login", {
      body: { email: created.json().user.email, password: "anything" },
    });
    expect(login.statusCode).toBe(401);
  });
});

describe("POST /api/auth/google without GOOGLE_CLIENT_ID", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("answers 400 saying Google sign-in is off, and the CSP stays strict", async () => {
    const response = await call(t, "POST", "/api/auth/google", { body: { token: "x" } });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(GOOGLE_MESSAGES.notConfigured);
    const page = await t.app.inject({ method: "GET", url: "/" });
    expect(String(page.headers["content-security-policy"])).not.toContain("google");
  });
});
