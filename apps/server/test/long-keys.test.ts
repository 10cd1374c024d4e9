import { API_KEY_MESSAGES } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError } from "../src/plugins/errors.ts";
import { adminSession, call, messageOf, signUp } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";

// Issue 24: a 40,000-character key (or 10,000 accented characters) made every answer a 500 that
// quoted the redaction pattern, and so every configured secret.
const HUGE_KEY = `sk-${"a1B2".repeat(10_000)}`;
const ACCENTED_KEY = `sk-${"é".repeat(10_000)}`;
const JWT_SECRET = "jwt-secret-for-the-long-keys-test-0123456789";
const SECRETS_KEY = "secrets-key-for-the-long-keys-test-9876543210";
const ADMIN_PASSWORD = "admin-password-long-keys-test";
const CONFIGURED = [JWT_SECRET, SECRETS_KEY, ADMIN_PASSWORD];

describe("a provider key of any length never takes the server down", () => {
  let t: TestApp;
  let admin: string;
  const answers: string[] = [];
  const record = <A extends { body: string }>(answer: A): A => {
    answers.push(answer.body);
    return answer;
  };

  beforeAll(async () => {
    t = await createTestApp({
      env: { JWT_SECRET, SECRETS_KEY, ADMIN_EMAIL: "owner@example.com", ADMIN_PASSWORD },
      register: async (app) => {
        app.get("/api/test/throws-secrets", async () => {
          throw new Error(`database said: ${JWT_SECRET} ${HUGE_KEY}`);
        });
        // An error whose details cannot even be read: the answer must still be made.
        app.get("/api/test/unreadable-error", async () => {
          const details = {
            get key(): string {
              throw new Error(`getter failed with ${SECRETS_KEY}`);
            },
          };
          throw new HttpError(400, `refused ${ADMIN_PASSWORD}`, details);
        });
      },
    });
    admin = (await adminSession(t)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("the contract refuses a key over 256 characters, saved or tested, naming the field", async () => {
    const settings = (await call(t, "GET", "/api/admin/settings", { token: admin })).json().data;
    for (const key of [HUGE_KEY, ACCENTED_KEY, `sk-${"x".repeat(254)}`]) {
      const saved = record(
        await call(t, "PUT", "/api/settings", {
          token: admin,
          body: {
            ...settings,
            providers: undefined,
            apiKeys: { ...settings.apiKeys, openai: key },
          },
        }),
      );
      expect(saved.statusCode, saved.body).toBe(400);
      expect(messageOf(saved)).toBe(`apiKeys.openai: ${API_KEY_MESSAGES.tooLong}`);
      for (const provider of ["openai", "stripe", "elevenlabs"]) {
        const tested = record(
          await call(t, "POST", `/api/settings/test-${provider}`, {
            token: admin,
            body: { apiKey: key },
          }),
        );
        expect(tested.statusCode, tested.body).toBe(400);
        expect(messageOf(tested)).toBe(`apiKey: ${API_KEY_MESSAGES.tooLong}`);
      }
    }
    expect((await t.app.providerKeys.read()).openai).toBeUndefined();
    // 256 characters is a key still.
    const longest = `sk-${"x".repeat(253)}`;
    const saved = await call(t, "PUT", "/api/settings", {
      token: admin,
      body: {
        ...settings,
        providers: undefined,
        apiKeys: { ...settings.apiKeys, openai: longest },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await t.app.providerKeys.read()).openai).toBe(longest);
  });

  it("keys stored before the limit existed leave every answer whole, for everyone", async () => {
    // As an older version stored them, and every start reads them again.
    await t.app.providerKeys.write({ openai: HUGE_KEY, elevenLabs: ACCENTED_KEY });
    await t.app.providerKeys.read();

    const anonymous = record(await call(t, "GET", "/api/settings"));
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    const fan = await signUp(t);
    expect(fan.token).toBeTruthy();
    const login = record(
      await call(t, "POST", "/api/admin/login", {
        body: { email: "owner@example.com", password: ADMIN_PASSWORD },
      }),
    );
    expect(login.statusCode, login.body).toBe(200);
    const adminSettings = record(await call(t, "GET", "/api/admin/settings", { token: admin }));
    expect(adminSettings.statusCode, adminSettings.body).toBe(200);
    // The admin can remove them.
    const removed = record(
      await call(t, "PUT", "/api/settings", {
        token: admin,
        body: {
          ...adminSettings.json().data,
          providers: undefined,
          apiKeys: { ...adminSettings.json().data.apiKeys, openai: "", elevenLabs: "" },
        },
      }),
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await t.app.providerKeys.read()).toEqual({});
  });

  it("a failing route answers a plain 500 that quotes nothing, and an unreadable error too", async () => {
    await t.app.providerKeys.write({ openai: HUGE_KEY });
    await t.app.providerKeys.read();
    const crashed = record(await call(t, "GET", "/api/test/throws-secrets"));
    expect(crashed.statusCode).toBe(500);
    expect(crashed.json()).toEqual({ success: false, message: "Internal server error" });
    const unreadable = record(await call(t, "GET", "/api/test/unreadable-error"));
    expect(unreadable.statusCode).toBe(500);
    expect(unreadable.json()).toEqual({ success: false, message: "Internal server error" });
  });

  it("no answer carried a configured secret or the long keys", () => {
    const all = answers.join("\n");
    for (const secret of [...CONFIGURED, HUGE_KEY.slice(0, 60), ACCENTED_KEY.slice(0, 60)]) {
      expect(all).not.toContain(secret);
    }
    expect(all).not.toContain("Regular expression");
  });
});
