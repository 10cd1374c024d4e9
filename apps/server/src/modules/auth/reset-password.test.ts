import { AUTH_MESSAGES, authResponseSchema } from "@twinline/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp, uniqueEmail } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { startTestSmtp, type TestSmtp } from "../../../test/smtp.ts";
import { mailOutbox, passwordResetTokens } from "../../db/schema/index.ts";

const PUBLIC_URL = "https://twin.example.com";
const LINK = /https:\/\/twin\.example\.com\/reset-password\/([A-Za-z0-9_-]+)/;

describe("forgot and reset password over a real SMTP server", () => {
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({
      env: { SMTP_URL: smtp.url, MAIL_FROM: "Twinline <hello@twin.example.com>", PUBLIC_URL },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const forgot = (email: string) =>
    call(t, "POST", "/api/auth/forgotpassword", { body: { email } });
  const reset = (token: string, password: string) =>
    call(t, "PUT", `/api/auth/resetpassword/${token}`, { body: { password } });

  async function requestLink(email: string): Promise<string> {
    const response = await forgot(email);
    expect(response.statusCode).toBe(200);
    const mail = await smtp.waitFor(email);
    const token = LINK.exec(mail.decoded)?.[1];
    if (!token) throw new Error(`No reset link in:\n${mail.decoded}`);
    return token;
  }

  it("answers the same whether or not the account exists", async () => {
    const { user } = await signUp(t);
    const known = await forgot(` ${user.email.toUpperCase()} `);
    const unknown = await forgot(uniqueEmail("nobody"));
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json()).toEqual({ success: true, message: AUTH_MESSAGES.forgotPasswordSent });
    await smtp.waitFor(user.email);
  });

  it("mails a PUBLIC_URL link whose token resets the password once, ends old tokens and signs in", async () => {
    const { user, token: oldSession } = await signUp(t);
    const mailed = await forgot(user.email);
    expect(mailed.statusCode).toBe(200);
    const mail = await smtp.waitFor(user.email);
    expect(mail.raw).toMatch(/^From: Twinline <hello@twin\.example\.com>/m);
    expect(mail.raw).toMatch(/^Subject: Reset your password/m);
    const token = LINK.exec(mail.decoded)?.[1] ?? "";
    expect(token.length).toBeGreaterThanOrEqual(20);

    // Only the hash is stored.
    const rows = await t.app.database.db.select().from(passwordResetTokens);
    expect(rows.some((row) => row.tokenHash === token)).toBe(false);

    const short = await reset(token, "12345");
    expect(short.statusCode).toBe(400);
    expect(messageOf(short)).toBe(`password: ${AUTH_MESSAGES.resetPasswordTooShort}`);

    const done = await reset(token, "brand new pw");
    expect(done.statusCode).toBe(200);
    const body = authResponseSchema.parse(done.json());
    expect(body.user.id).toBe(user.id);
    expect((await call(t, "GET", "/api/auth/me", { token: body.token })).statusCode).toBe(200);
    expect((await call(t, "GET", "/api/auth/me", { token: oldSession })).statusCode).toBe(401);

    const login = await call(t, "POST", "/api/auth/login", {
      body: { email: user.email, password: "brand new pw" },
    });
    expect(login.statusCode).toBe(200);

    const again = await reset(token, "another pw");
    expect(again.statusCode).toBe(400);
    expect(messageOf(again)).toBe(AUTH_MESSAGES.resetTokenInvalid);
    expect(messageOf(again)).toMatch(/invalid/);
    expect(messageOf(again)).toMatch(/expired/);
  });

  it("refuses an expired link, an unknown one and a too short one", async () => {
    const { user } = await signUp(t);
    const token = await requestLink(user.email);
    await t.app.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(passwordResetTokens.userId, user.id));
    const expired = await reset(token, "brand new pw");
    expect(expired.statusCode).toBe(400);
    expect(messageOf(expired)).toBe(AUTH_MESSAGES.resetTokenInvalid);

    const unknown = await reset("A".repeat(43), "brand new pw");
    expect(unknown.statusCode).toBe(400);
    expect(messageOf(unknown)).toBe(AUTH_MESSAGES.resetTokenInvalid);
    const short = await reset("short", "brand new pw");
    expect(short.statusCode).toBe(400);
    expect(messageOf(short)).toBe(AUTH_MESSAGES.resetTokenInvalid);
  });

  it("a newer link's use ends the older ones", async () => {
    const { user } = await signUp(t);
    const first = await requestLink(user.email);
    const second = await requestLink(user.email);
    expect((await reset(second, "brand new pw")).statusCode).toBe(200);
    expect((await reset(first, "other new pw")).statusCode).toBe(400);
  });

  it("sends nothing for a deactivated account, and its link stops working", async () => {
    const { user } = await signUp(t);
    const token = await requestLink(user.email);
    const admin = await adminSession(t);
    await call(t, "PUT", `/api/admin/users/${user.id}/status`, {
      token: admin.token,
      body: { action: "deactivate" },
    });
    const response = await reset(token, "brand new pw");
    expect(response.statusCode).toBe(403);
    expect(messageOf(response)).toBe(AUTH_MESSAGES.accountDeactivated);
    expect((await forgot(user.email)).statusCode).toBe(200);
    await expect(smtp.waitFor(user.email, 500)).rejects.toThrow(/No mail/);
  });
});

describe("forgot password without SMTP_URL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL } });
  });
  afterAll(() => t?.close());

  it("keeps the mail in the outbox, with the link", async () => {
    expect(t.app.mail.kind).toBe("outbox");
    const { user } = await signUp(t);
    expect(
      (await call(t, "POST", "/api/auth/forgotpassword", { body: { email: user.email } }))
        .statusCode,
    ).toBe(200);
    let rows: (typeof mailOutbox.$inferSelect)[] = [];
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      rows = await t.app.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
      if (rows.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows).toHaveLength(1);
    const token = LINK.exec(rows[0]?.text ?? "")?.[1];
    expect(token).toBeDefined();
    const done = await call(t, "PUT", `/api/auth/resetpassword/${token}`, {
      body: { password: "brand new pw" },
    });
    expect(done.statusCode).toBe(200);
  });
});
