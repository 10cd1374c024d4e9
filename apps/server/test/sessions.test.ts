import { Writable } from "node:stream";
import { AUTH_MESSAGES } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, passwordResetTokens } from "../src/db/schema/index.ts";
import { sha256 } from "../src/modules/auth/service.ts";
import { adminSession, call, PASSWORD, signUp } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";

// Sessions end on the server (issue 12, item 3).

describe("logout ends the token on the server", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it("POST /api/auth/logout: that token is refused afterwards, the user's other sessions go on", async () => {
    const first = await signUp(t);
    const second = await call(t, "POST", "/api/auth/login", {
      body: { email: first.user.email, password: PASSWORD },
    });
    expect(second.statusCode).toBe(200);
    const out = await call(t, "POST", "/api/auth/logout", { token: first.token });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({ success: true, message: "Logged out" });
    const after = await call(t, "GET", "/api/auth/me", { token: first.token });
    expect(after.statusCode).toBe(401);
    expect((await call(t, "GET", "/api/auth/me", { token: second.json().token })).statusCode).toBe(
      200,
    );
  });

  it("POST /api/admin/logout: the admin token is refused afterwards", async () => {
    const admin = await adminSession(t);
    expect(
      (await call(t, "GET", "/api/admin/verify-token", { token: admin.token })).statusCode,
    ).toBe(200);
    const out = await call(t, "POST", "/api/admin/logout", { token: admin.token });
    expect(out.statusCode, out.body).toBe(200);
    expect(
      (await call(t, "GET", "/api/admin/verify-token", { token: admin.token })).statusCode,
    ).toBe(401);
    expect((await call(t, "GET", "/api/admin/users", { token: admin.token })).statusCode).toBe(401);
  });

  it("every token carries an expiry and an id; one without either, or with a subject that is not a UUID, is refused", async () => {
    const { token, user } = await signUp(t);
    const [, payload] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString());
    expect(claims.exp - claims.iat).toBe(7 * 24 * 3600);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);

    const key = new TextEncoder().encode(t.config.jwtSecret);
    const forge = (build: (jwt: SignJWT) => SignJWT) =>
      build(new SignJWT({ role: "user", ver: 0 }).setProtectedHeader({ alg: "HS256" })).sign(key);
    const withoutExpiry = await forge((jwt) => jwt.setSubject(user.id).setJti(crypto.randomUUID()));
    const withoutId = await forge((jwt) => jwt.setSubject(user.id).setExpirationTime("1h"));
    const notUuid = await forge((jwt) =>
      jwt.setSubject("1 OR 1=1").setJti(crypto.randomUUID()).setExpirationTime("1h"),
    );
    const good = await forge((jwt) =>
      jwt.setSubject(user.id).setJti(crypto.randomUUID()).setExpirationTime("1h"),
    );
    for (const forged of [withoutExpiry, withoutId, notUuid]) {
      expect((await call(t, "GET", "/api/auth/me", { token: forged })).statusCode).toBe(401);
    }
    expect((await call(t, "GET", "/api/auth/me", { token: good })).statusCode).toBe(200);
  });

  it("a password change ends the account's open reset links", async () => {
    const { user, token } = await signUp(t);
    const resetToken = "A".repeat(43);
    await t.app.database.db.insert(passwordResetTokens).values({
      userId: user.id,
      tokenHash: sha256(resetToken),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const changed = await call(t, "PUT", "/api/users/password", {
      token,
      body: { currentPassword: PASSWORD, newPassword: "another long password" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const reset = await call(t, "PUT", `/api/auth/resetpassword/${resetToken}`, {
      body: { password: "third password" },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().message).toBe(AUTH_MESSAGES.resetTokenInvalid);
  });
});

describe("reset links in the log", () => {
  const capture = () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    return { lines, logger: { level: "info", stream } };
  };

  async function forgot(env: NodeJS.ProcessEnv) {
    const log = capture();
    const t = await createTestApp({ env, logger: log.logger });
    try {
      const { user } = await signUp(t);
      await call(t, "POST", "/api/auth/forgotpassword", { body: { email: user.email } });
      await t.app.auth.drain();
      const [row] = await t.app.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.to, user.email));
      const line = log.lines.find((l) => l.includes("Mail kept in the outbox"));
      return { row, line };
    } finally {
      await t.close();
    }
  }

  it("in production the outbox keeps the link and the log line does not carry it", async () => {
    const { row, line } = await forgot({ NODE_ENV: "production" });
    expect(row?.text).toContain("/reset-password/");
    expect(line).toBeDefined();
    expect(line).not.toContain("/reset-password/");
  });

  it("outside production the log line carries the text, for a machine without mail", async () => {
    const { line } = await forgot({ NODE_ENV: "development" });
    expect(line).toContain("/reset-password/");
  });
});
