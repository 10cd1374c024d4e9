import { AUTH_MESSAGES, authResponseSchema, meResponseSchema } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADULT_BIRTH_DATE,
  adminSession,
  call,
  messageOf,
  PASSWORD,
  signUp,
  uniqueEmail,
} from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { creditLedger, users } from "../../db/schema/index.ts";
import { AUTH_ERRORS } from "../../plugins/auth.ts";

describe("accounts: sign-up, login, me, profile, password", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("signs up with a trimmed, lower-cased e-mail, 100 credits through the ledger, and a session", async () => {
    const email = uniqueEmail("Mixed");
    const response = await call(t, "POST", "/api/auth/signup", {
      body: {
        name: "  Early Member ",
        email: `  ${email.toUpperCase()} `,
        password: PASSWORD,
        dateOfBirth: ADULT_BIRTH_DATE,
      },
    });
    expect(response.statusCode).toBe(201);
    const body = authResponseSchema.parse(response.json());
    expect(body.user).toMatchObject({
      name: "Early Member",
      email: email.toLowerCase(),
      role: "user",
      credits: 100,
      googleId: null,
      profileImage: null,
      subscription: { status: "inactive", planId: null, planName: null, endDate: null },
    });
    expect(body.user._id).toBe(body.user.id);

    const ledger = await t.app.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, body.user.id));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      kind: "grant",
      amount: 100,
      balanceAfter: 100,
      sourceKey: `signup:${body.user.id}`,
    });

    const [row] = await t.app.database.db.select().from(users).where(eq(users.id, body.user.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.lastLogin).toBeInstanceOf(Date);

    const me = await call(t, "GET", "/api/auth/me", { token: body.token });
    expect(me.statusCode).toBe(200);
    expect(meResponseSchema.parse(me.json()).data).toEqual(body.user);
  });

  it("grants the defaultCredits of the settings", async () => {
    await t.app.settings.update({ defaultCredits: 42 });
    try {
      const { user } = await signUp(t);
      expect(user.credits).toBe(42);
    } finally {
      await t.app.settings.update({ defaultCredits: 100 });
    }
  });

  it("refuses a second account on the same e-mail, whatever its case, with 409", async () => {
    const email = uniqueEmail();
    await signUp(t, { email });
    const again = await call(t, "POST", "/api/auth/signup", {
      body: {
        name: "Other",
        email: ` ${email.toUpperCase()}`,
        password: PASSWORD,
        dateOfBirth: ADULT_BIRTH_DATE,
      },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, message: AUTH_MESSAGES.emailTaken });
  });

  it("refuses a short sign-up password with the spec's message, naming the field", async () => {
    const response = await call(t, "POST", "/api/auth/signup", {
      body: { name: "A", email: uniqueEmail(), password: "1234567", dateOfBirth: ADULT_BIRTH_DATE },
    });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(`password: ${AUTH_MESSAGES.signupPasswordTooShort}`);
  });

  it("logs in with the e-mail in any case and spacing, and records lastLogin", async () => {
    const { user } = await signUp(t);
    await t.app.database.db.update(users).set({ lastLogin: null }).where(eq(users.id, user.id));
    const response = await call(t, "POST", "/api/auth/login", {
      body: { email: `  ${user.email.toUpperCase()}  `, password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const body = authResponseSchema.parse(response.json());
    expect(body.user.id).toBe(user.id);
    const [row] = await t.app.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.lastLogin).toBeInstanceOf(Date);
  });

  it("answers the same 401 for a wrong e-mail and a wrong password", async () => {
    const { user } = await signUp(t);
    const wrongPassword = await call(t, "POST", "/api/auth/login", {
      body: { email: user.email, password: "not the password" },
    });
    const wrongEmail = await call(t, "POST", "/api/auth/login", {
      body: { email: uniqueEmail("nobody"), password: PASSWORD },
    });
    for (const response of [wrongPassword, wrongEmail]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        success: false,
        message: AUTH_MESSAGES.invalidCredentials,
      });
    }
  });

  it("refuses a deactivated account's login with 403 and says so", async () => {
    const { user } = await signUp(t);
    const admin = await adminSession(t);
    const status = await call(t, "PUT", `/api/admin/users/${user.id}/status`, {
      token: admin.token,
      body: { action: "deactivate" },
    });
    expect(status.statusCode).toBe(200);
    const login = await call(t, "POST", "/api/auth/login", {
      body: { email: user.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(403);
    expect(messageOf(login)).toBe(AUTH_MESSAGES.accountDeactivated);
    // The wrong password still gets the plain 401: the 403 does not confirm an account.
    const wrong = await call(t, "POST", "/api/auth/login", {
      body: { email: user.email, password: "nope nope nope" },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it("GET /api/auth/me: 401 without a token, with a forged one, and with garbage", async () => {
    const none = await call(t, "GET", "/api/auth/me");
    expect(none.statusCode).toBe(401);
    expect(messageOf(none)).toBe(AUTH_ERRORS.missingToken);
    const { token } = await signUp(t);
    const forged = `${token.slice(0, -4)}AAAA`;
    for (const bad of [forged, "garbage", "a.b.c"]) {
      const response = await call(t, "GET", "/api/auth/me", { token: bad });
      expect(response.statusCode).toBe(401);
      expect(messageOf(response)).toBe(AUTH_ERRORS.invalidToken);
    }
  });

  it("PUT /api/users/profile changes the name (trimmed), never the e-mail", async () => {
    const { token, user } = await signUp(t);
    const response = await call(t, "PUT", "/api/users/profile", {
      token,
      body: { name: "  New Name ", email: "other@example.com" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      user: { name: "New Name", email: user.email },
    });
    const empty = await call(t, "PUT", "/api/users/profile", { token, body: { name: "   " } });
    expect(empty.statusCode).toBe(400);
    expect(messageOf(empty)).toBe("name: Name is required");
  });

  it("PUT /api/users/password: rules, 400 for a wrong current password, ends earlier tokens", async () => {
    const { token, user } = await signUp(t);
    const short = await call(t, "PUT", "/api/users/password", {
      token,
      body: { currentPassword: PASSWORD, newPassword: "short" },
    });
    expect(short.statusCode).toBe(400);
    expect(messageOf(short)).toBe(`newPassword: ${AUTH_MESSAGES.profilePasswordTooShort}`);

    const wrong = await call(t, "PUT", "/api/users/password", {
      token,
      body: { currentPassword: "not it at all", newPassword: "a new long password" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(messageOf(wrong)).toBe(AUTH_MESSAGES.wrongCurrentPassword);

    const changed = await call(t, "PUT", "/api/users/password", {
      token,
      body: { currentPassword: PASSWORD, newPassword: "a new long password" },
    });
    expect(changed.statusCode).toBe(200);
    const body = changed.json();
    expect(body).toMatchObject({ success: true, message: AUTH_MESSAGES.passwordChanged });

    const old = await call(t, "GET", "/api/auth/me", { token });
    expect(old.statusCode).toBe(401);
    expect(messageOf(old)).toBe(AUTH_ERRORS.invalidToken);
    const fresh = await call(t, "GET", "/api/auth/me", { token: body.token });
    expect(fresh.statusCode).toBe(200);

    const oldLogin = await call(t, "POST", "/api/auth/login", {
      body: { email: user.email, password: PASSWORD },
    });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await call(t, "POST", "/api/auth/login", {
      body: { email: user.email, password: "a new long password" },
    });
    expect(newLogin.statusCode).toBe(200);
  });

  it("deactivation ends the user's tokens at once, with the deactivated message", async () => {
    const { token, user } = await signUp(t);
    expect((await call(t, "GET", "/api/auth/me", { token })).statusCode).toBe(200);
    const admin = await adminSession(t);
    await call(t, "PUT", `/api/admin/users/${user.id}/status`, {
      token: admin.token,
      body: { action: "suspend" },
    });
    const after = await call(t, "GET", "/api/auth/me", { token });
    expect(after.statusCode).toBe(401);
    expect(messageOf(after)).toBe(AUTH_MESSAGES.accountDeactivated);

    // Activated again, the old token stays ended: a new login is needed.
    await call(t, "PUT", `/api/admin/users/${user.id}/status`, {
      token: admin.token,
      body: { action: "activate" },
    });
    const reactivated = await call(t, "GET", "/api/auth/me", { token });
    expect(reactivated.statusCode).toBe(401);
    const login = await call(t, "POST", "/api/auth/login", {
      body: { email: user.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });

  it("GET /api/auth/config answers a null Google client id when none is set", async () => {
    const response = await call(t, "GET", "/api/auth/config");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ googleClientId: null });
  });
});
