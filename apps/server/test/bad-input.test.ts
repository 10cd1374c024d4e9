import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, csrfFor, messageOf, signUp, uniqueEmail } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";

// Bad input answers 400 naming the field, never 500 (issue 12, item 1).

const NUL = "a\u0000b";
const LONE = "a\ud800b";

describe("bad input is refused with 400, never a 500", () => {
  let t: TestApp;
  let admin: { token: string };
  let user: { token: string };
  const logLines: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp({ logger: { level: "info", stream } });
    admin = await adminSession(t);
    user = await signUp(t);
  });
  afterAll(async () => t.close());

  it.each([
    [
      "sign-up name",
      "POST",
      "/api/auth/signup",
      () => ({ name: NUL, email: uniqueEmail(), password: "password1" }),
      "name",
    ],
    [
      "sign-up email",
      "POST",
      "/api/auth/signup",
      () => ({ name: "Test User", email: `a${LONE}@example.com`, password: "password1" }),
      "email",
    ],
    ["profile name", "PUT", "/api/users/profile", () => ({ name: LONE }), "name"],
    ["chat message", "POST", "/api/chat/message", () => ({ message: NUL }), "message"],
    [
      "system prompt",
      "PUT",
      "/api/ai-training/system-prompt",
      () => ({ systemPrompt: NUL }),
      "systemPrompt",
    ],
  ] as const)("a NUL or lone surrogate in the %s", async (_what, method, url, body, field) => {
    const token = url.startsWith("/api/ai-training") ? admin.token : user.token;
    const response = await call(t, method, url, { token, body: body() });
    expect(response.statusCode, response.body).toBe(400);
    expect(messageOf(response)).toMatch(new RegExp(`^${field}: `));
  });

  it("settings strings with a NUL or a lone surrogate, and a key with a control character", async () => {
    const current = (await call(t, "GET", "/api/admin/settings", { token: admin.token })).json()
      .data;
    const { providers: _p, ...body } = current;
    for (const [change, field] of [
      [{ aiProfile: { ...body.aiProfile, name: LONE } }, "aiProfile.name"],
      [
        { aiProfile: { ...body.aiProfile, promotionalMessage: NUL } },
        "aiProfile.promotionalMessage",
      ],
      [
        { socialMediaProfiles: { ...body.socialMediaProfiles, twitter: `https://x.com/${LONE}` } },
        "socialMediaProfiles.twitter",
      ],
      [{ apiKeys: { ...body.apiKeys, openai: "sk-abc\u0007def" } }, "apiKeys.openai"],
      [{ apiKeys: { ...body.apiKeys, elevenLabs: "abc\ndef" } }, "apiKeys.elevenLabs"],
    ] as const) {
      const response = await call(t, "PUT", "/api/settings", {
        token: admin.token,
        body: { ...body, ...change },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(messageOf(response).startsWith(`${field}: `), messageOf(response)).toBe(true);
    }
  });

  it("the word limit must be at least 1, naming the field", async () => {
    const current = (await call(t, "GET", "/api/admin/settings", { token: admin.token })).json()
      .data;
    const { providers: _p, ...body } = current;
    for (const field of ["maxWordsPerMessage"]) {
      const response = await call(t, "PUT", "/api/settings", {
        token: admin.token,
        body: { ...body, [field]: 0 },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(messageOf(response)).toMatch(new RegExp(`^${field}: .*at least 1`));
    }
  });

  it.each([
    ["/api/admin/users", { search: "\u0000" }, "search"],
    ["/api/admin/chat-logs", { search: "\u0000" }, "search"],
    ["/api/admin/chat-logs", { startDate: "0000-01-01" }, "startDate"],
    ["/api/admin/chat-logs", { endDate: "9999-12-31" }, "endDate"],
    ["/api/admin/chat-logs", { startDate: "10000-01-01" }, "startDate"],
    ["/api/admin/chat-logs/export", { search: "\u0000" }, "search"],
    ["/api/admin/chat-logs/export", { endDate: "9999-12-31" }, "endDate"],
  ])("%s with %o", async (url, query, field) => {
    const response = await call(t, "GET", url, { token: admin.token, query });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.headers["content-type"]).toMatch(/json/);
    expect(messageOf(response)).toMatch(new RegExp(`^${field}: `));
  });

  it("the CSV export answers an error, not a 200 cut short, when its query fails", async () => {
    const { sql } = await import("drizzle-orm");
    await t.app.database.db.execute(sql`alter table conversations rename to conversations_away`);
    try {
      const response = await call(t, "GET", "/api/admin/chat-logs/export", { token: admin.token });
      expect(response.statusCode).toBe(500);
      expect(response.headers["content-type"]).toMatch(/json/);
      expect(response.json()).toEqual({ success: false, message: "Internal server error" });
    } finally {
      await t.app.database.db.execute(sql`alter table conversations_away rename to conversations`);
    }
    const ok = await call(t, "GET", "/api/admin/chat-logs/export", { token: admin.token });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["content-type"]).toMatch(/text\/csv/);
  });

  it("a token whose subject is not a UUID is a 401", async () => {
    const token = await t.app.tokens.sign({ id: "not-a-uuid", role: "user", tokenVersion: 0 });
    const response = await call(t, "GET", "/api/auth/me", { token });
    expect(response.statusCode, response.body).toBe(401);
  });

  describe("malformed multipart on the three upload routes", () => {
    const routes = [
      "/api/settings/upload",
      "/api/ai-training/knowledge-documents",
      "/api/ai-training/voice-sample",
    ];
    const boundary = "----twinlineboundary";
    const part = (b: string, eol = "\r\n") =>
      `--${b}${eol}Content-Disposition: form-data; name="file"; filename="a.png"${eol}Content-Type: image/png${eol}${eol}abc${eol}`;
    const cases: [string, string, string | Buffer][] = [
      ["no boundary", "multipart/form-data", part(boundary)],
      [
        "a wrong boundary",
        `multipart/form-data; boundary=${boundary}`,
        `${part("other")}--other--\r\n`,
      ],
      [
        "a truncated body",
        `multipart/form-data; boundary=${boundary}`,
        part(boundary).slice(0, 40),
      ],
      ["no closing boundary", `multipart/form-data; boundary=${boundary}`, part(boundary)],
      [
        "garbage bytes",
        `multipart/form-data; boundary=${boundary}`,
        Buffer.from([0xff, 0x00, 0xfe, 0x13, 0x10, 0x99]),
      ],
      [
        "LF-only lines",
        `multipart/form-data; boundary=${boundary}`,
        `${part(boundary, "\n")}--${boundary}--\n`,
      ],
    ];
    for (const url of routes) {
      it.each(cases)(`${url} with %s`, async (_what, contentType, payload) => {
        const csrf = await csrfFor(t);
        const response = await t.app.inject({
          method: "POST",
          url,
          headers: {
            "content-type": contentType,
            "csrf-token": csrf.token,
            authorization: `Bearer ${admin.token}`,
          },
          cookies: { _csrf: csrf.cookie },
          payload,
        });
        expect(response.statusCode, response.body).toBe(400);
      });
    }
  });

  it("a failed query's log line carries no bound parameter", async () => {
    // A query the database refuses, with a value that must not reach the log.
    logLines.length = 0;
    const secret = "secret-parameter-value-42";
    await expect(
      t.app.database.db.execute((await import("drizzle-orm")).sql`select ${secret}::int`),
    ).rejects.toThrow();
    try {
      await t.app.database.db.execute((await import("drizzle-orm")).sql`select ${secret}::int`);
    } catch (error) {
      t.app.log.error({ err: error }, "probe");
    }
    const line = logLines.find((l) => l.includes("probe"));
    expect(line).toBeDefined();
    expect(line).toContain("Failed query");
    expect(line).not.toContain(secret);
  });
});
