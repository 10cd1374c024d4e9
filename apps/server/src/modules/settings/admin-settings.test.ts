import { Writable } from "node:stream";
import {
  API_KEY_MESSAGES,
  adminSettingsResponseSchema,
  defaultPublicSettings,
  defaultSiteSettings,
  type UpdateSettingsRequest,
} from "@twinline/contracts";
import type { FakeHttpServer } from "@twinline/fakes";
import {
  FAKE_ELEVENLABS_KEY,
  FAKE_OPENAI_KEY,
  FAKE_OPENAI_MODELS,
  FAKE_STRIPE_SECRET_KEY as FAKE_STRIPE_KEY,
  FAKE_VOICES,
  type FakeOpenAi,
  startFakeElevenLabs,
  startFakeOpenAi,
  startFakeStripe,
} from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { icoFile, JPEG_HEAD, PNG_1PX, SVG_WITH_SCRIPT, upload } from "../../../test/multipart.ts";
import { providerKeys } from "../../db/schema/index.ts";
import { SVG_CSP } from "../../plugins/uploads.ts";

const validBody = (
  apiKeys: Partial<UpdateSettingsRequest["apiKeys"]> = {},
): UpdateSettingsRequest => ({
  ...structuredClone(defaultSiteSettings),
  apiKeys: { openai: "", stripe: { secret: "", publishable: "" }, elevenLabs: "", ...apiKeys },
});

describe("operator settings: keys, tests, uploads", () => {
  let t: TestApp;
  let openai: FakeOpenAi;
  let stripe: FakeHttpServer;
  let elevenLabs: FakeHttpServer;
  let admin: string;
  let user: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    [openai, stripe, elevenLabs] = await Promise.all([
      startFakeOpenAi(),
      startFakeStripe(),
      startFakeElevenLabs(),
    ]);
    t = await createTestApp({
      env: {
        // As on a machine without Debian's pocketsphinx: speech to text is plainly offline.
        POCKETSPHINX_BIN: "/nonexistent/pocketsphinx_continuous",
        OPENAI_BASE_URL: openai.baseUrl,
        STRIPE_API_BASE: stripe.origin,
        ELEVENLABS_BASE_URL: elevenLabs.origin,
      },
      // Everything the app logs, at the most verbose level, to check no key ever reaches it.
      logger: {
        level: "trace",
        stream: new Writable({
          write(chunk, _encoding, done) {
            logLines.push(String(chunk));
            done();
          },
        }),
      },
      uploadLimits: { imageBytes: 64 * 1024 },
    });
    admin = (await adminSession(t)).token;
    user = (await signUp(t)).token;
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([openai?.close(), stripe?.close(), elevenLabs?.close()]);
  });

  const save = (body: unknown, token = admin) => call(t, "PUT", "/api/settings", { token, body });
  const adminRead = async () => {
    const response = await call(t, "GET", "/api/admin/settings", { token: admin });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  it("validates the settings with 400 naming the field", async () => {
    const cases: [unknown, string, string?][] = [
      [{ ...validBody(), defaultCredits: -1 }, "defaultCredits"],
      [{ ...validBody(), maxWordsPerMessage: 2.5 }, "maxWordsPerMessage"],
      [{ ...validBody(), creditsPerMinute: 0 }, "creditsPerMinute", API_KEY_MESSAGES.creditCost],
      [
        {
          ...validBody(),
          socialMediaProfiles: {
            ...defaultPublicSettings.socialMediaProfiles,
            twitter: "not a url",
          },
        },
        "socialMediaProfiles.twitter",
      ],
      [validBody({ openai: "pk-123" }), "apiKeys.openai", API_KEY_MESSAGES.openaiPrefix],
      [
        validBody({ stripe: { secret: "pk_1", publishable: "" } }),
        "apiKeys.stripe.secret",
        API_KEY_MESSAGES.stripeSecretPrefix,
      ],
      [
        validBody({ stripe: { secret: "", publishable: "sk_1" } }),
        "apiKeys.stripe.publishable",
        API_KEY_MESSAGES.stripePublishablePrefix,
      ],
    ];
    for (const [body, field, text] of cases) {
      const response = await save(body);
      expect(response.statusCode, field).toBe(400);
      expect(messageOf(response).startsWith(`${field}:`), messageOf(response)).toBe(true);
      if (text) expect(messageOf(response)).toContain(text);
    }
  });

  it("the trial's daily caps: defaults 30 and 1,000, bounded, kept when absent, never public", async () => {
    const before = await adminRead();
    expect(before.anonymousMessagesPerAddressPerDay).toBe(30);
    expect(before.anonymousMessagesPerDay).toBe(1_000);

    const cases: [unknown, string, string][] = [
      [0, "anonymousMessagesPerAddressPerDay", "at least 1"],
      [1_001, "anonymousMessagesPerAddressPerDay", "at most 1,000"],
      [2.5, "anonymousMessagesPerAddressPerDay", "whole number"],
      ["30", "anonymousMessagesPerAddressPerDay", "whole number"],
      [0, "anonymousMessagesPerDay", "at least 1"],
      [100_001, "anonymousMessagesPerDay", "at most 100,000"],
      [null, "anonymousMessagesPerDay", "whole number"],
    ];
    for (const [value, field, text] of cases) {
      const response = await save({ ...validBody(), [field]: value });
      expect(response.statusCode, `${field} ${value}`).toBe(400);
      expect(messageOf(response)).toMatch(new RegExp(`^${field}: .*${text}`));
    }
    // Nothing of the refused saves was stored.
    expect((await adminRead()).anonymousMessagesPerDay).toBe(1_000);

    const saved = await save({
      ...validBody(),
      anonymousMessagesPerAddressPerDay: 1_000,
      anonymousMessagesPerDay: 1,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({
      anonymousMessagesPerAddressPerDay: 1_000,
      anonymousMessagesPerDay: 1,
    });
    // A client that does not send them (an older admin screen) keeps the stored caps.
    const {
      anonymousMessagesPerAddressPerDay: _a,
      anonymousMessagesPerDay: _d,
      ...older
    } = validBody();
    expect((await save(older)).statusCode).toBe(200);
    expect(await adminRead()).toMatchObject({
      anonymousMessagesPerAddressPerDay: 1_000,
      anonymousMessagesPerDay: 1,
    });
    // The operator's abuse thresholds are nobody else's business.
    const open = (await t.app.inject({ method: "GET", url: "/api/settings" })).json();
    expect(open).not.toHaveProperty("anonymousMessagesPerAddressPerDay");
    expect(open).not.toHaveProperty("anonymousMessagesPerDay");
    expect(open.anonymousMessages).toBe(defaultPublicSettings.anonymousMessages);

    expect((await save(validBody())).statusCode).toBe(200);
    expect((await adminRead()).anonymousMessagesPerDay).toBe(1_000);
  });

  it("only an admin saves: no token 401, a user 403", async () => {
    expect((await save(validBody(), "")).statusCode).toBe(401);
    expect((await save(validBody(), user)).statusCode).toBe(403);
  });

  it("saves, reads keys masked, keeps a masked key, removes an empty one, encrypts at rest", async () => {
    expect((await adminRead()).providers).toEqual({
      llm: "offline",
      stt: "offline",
      tts: "offline",
      payments: "sandbox",
    });
    const response = await save({
      ...validBody({
        openai: FAKE_OPENAI_KEY,
        stripe: { secret: FAKE_STRIPE_KEY, publishable: "pk_test_publishable_123456" },
        elevenLabs: FAKE_ELEVENLABS_KEY,
      }),
      defaultCredits: 42,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.message).toBe("Settings saved successfully!");
    expect(body.data.defaultCredits).toBe(42);
    expect(body.data.apiKeys.openai).toBe("sk-••••••••3456");
    expect(body.data.apiKeys.stripe.secret).toMatch(/^sk_test_•+7890$/);
    // A saved key switches its provider on at once.
    expect(body.data.providers).toEqual({
      llm: "openai",
      stt: "openai",
      tts: "elevenlabs",
      payments: "stripe",
    });
    expect((await t.app.providers.llm()).mode).toBe("openai");
    expect(response.body).not.toContain(FAKE_OPENAI_KEY);

    // The form sends the masked values back with another change: the keys stay.
    const masked = (await adminRead()).apiKeys;
    const again = await save({ ...validBody(masked), defaultCredits: 43 });
    expect(again.statusCode, again.body).toBe(200);
    expect((await t.app.providerKeys.read()).openai).toBe(FAKE_OPENAI_KEY);
    expect((await t.app.providerKeys.read()).elevenLabs).toBe(FAKE_ELEVENLABS_KEY);

    // At rest: sealed, never the plaintext.
    const rows = await t.app.database.db.select().from(providerKeys);
    expect(rows).toHaveLength(4);
    const raw = JSON.stringify(rows);
    for (const key of [
      FAKE_OPENAI_KEY,
      FAKE_STRIPE_KEY,
      FAKE_ELEVENLABS_KEY,
      "pk_test_publishable_123456",
    ]) {
      expect(raw).not.toContain(key);
    }
    expect(rows.every((row) => row.sealed.startsWith("v1."))).toBe(true);

    // The public settings never carry any key.
    const publicBody = (await call(t, "GET", "/api/settings")).body;
    expect(publicBody).not.toMatch(/apiKeys|sk-|sk_|pk_/);
    expect(JSON.parse(publicBody).defaultCredits).toBe(43);

    // Empty removes a key: its provider goes back offline.
    const removed = await save(validBody({ ...masked, elevenLabs: "" }));
    expect(removed.json().data.apiKeys.elevenLabs).toBe("");
    expect(removed.json().data.providers.tts).toBe("offline");
    const restored = await save(validBody({ ...masked, elevenLabs: FAKE_ELEVENLABS_KEY }));
    expect(restored.json().data.providers.tts).toBe("elevenlabs");
  });

  it("tests the OpenAI key with the SDK at the configured base URL", async () => {
    const ok = await call(t, "POST", "/api/settings/test-openai", {
      token: admin,
      body: { apiKey: FAKE_OPENAI_KEY },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      success: true,
      message: "OpenAI API key is valid",
      data: { availableModels: FAKE_OPENAI_MODELS },
    });
    expect(openai.requests.at(-1)?.headers.authorization).toBe(`Bearer ${FAKE_OPENAI_KEY}`);

    // A masked key tests the stored one.
    const stored = await call(t, "POST", "/api/settings/test-openai", {
      token: admin,
      body: { apiKey: "sk-••••••••3456" },
    });
    expect(stored.statusCode, stored.body).toBe(200);

    const bad = await call(t, "POST", "/api/settings/test-openai", {
      token: admin,
      body: { apiKey: "sk-wrong-key-0000" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false });
    // OpenAI quotes the key it was given, partly starred: no part of it is echoed.
    expect(messageOf(bad)).toBe(
      "Incorrect API key provided: [redacted]. You can find your API key at https://platform.openai.com/account/api-keys.",
    );
    expect(bad.body).not.toContain("0000");
  });

  it("says when the provider cannot be reached", async () => {
    const closed = await startFakeOpenAi();
    await closed.close();
    const other = await createTestApp({ env: { OPENAI_BASE_URL: closed.baseUrl } });
    try {
      const token = (await adminSession(other)).token;
      const response = await call(other, "POST", "/api/settings/test-openai", {
        token,
        body: { apiKey: "sk-any" },
      });
      expect(response.statusCode).toBe(400);
      expect(messageOf(response)).toMatch(/^Could not reach OpenAI: /);
    } finally {
      await other.close();
    }
  });

  it("remembers each key's last test: a saved key that failed its test shows that, not just Live", async () => {
    const settingsNow = async () => {
      const response = await call(t, "GET", "/api/admin/settings", { token: admin });
      expect(response.statusCode, response.body).toBe(200);
      return adminSettingsResponseSchema.parse(response.json()).data;
    };
    const bad = await call(t, "POST", "/api/settings/test-openai", {
      token: admin,
      body: { apiKey: "sk-wrong-key-4242" },
    });
    expect(bad.statusCode).toBe(400);
    expect((await save(validBody({ openai: "sk-wrong-key-4242" }))).statusCode).toBe(200);
    const failed = await settingsNow();
    expect(failed.providers.llm).toBe("openai");
    expect(failed.keyTests.openai).toMatchObject({
      ok: false,
      message: expect.stringContaining("Incorrect API key provided: [redacted]"),
    });
    expect(JSON.stringify(failed)).not.toContain("4242");

    // Another key saved: that one was never tested.
    expect((await save(validBody({ openai: FAKE_OPENAI_KEY }))).statusCode).toBe(200);
    expect((await settingsNow()).keyTests.openai).toBeNull();
    // Its test (the masked form tests the stored key) passes, and is shown.
    const good = await call(t, "POST", "/api/settings/test-openai", {
      token: admin,
      body: { apiKey: "sk-••••••••3456" },
    });
    expect(good.statusCode, good.body).toBe(200);
    expect((await settingsNow()).keyTests.openai).toMatchObject({ ok: true, message: "" });
  });

  it("tests the Stripe key with a balance read", async () => {
    const ok = await call(t, "POST", "/api/settings/test-stripe", {
      token: admin,
      body: { apiKey: FAKE_STRIPE_KEY },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ success: true, message: "Stripe API key is valid" });
    expect(stripe.requests.at(-1)?.path).toBe("/v1/balance");
    const bad = await call(t, "POST", "/api/settings/test-stripe", {
      token: admin,
      body: { apiKey: "sk_test_wrong_0000" },
    });
    expect(bad.statusCode).toBe(400);
    expect(messageOf(bad)).toBe("Invalid API Key provided: [redacted]");
    expect(bad.body).not.toContain("0000");
  });

  it("tests the ElevenLabs key with the voices list", async () => {
    const ok = await call(t, "POST", "/api/settings/test-elevenlabs", {
      token: admin,
      body: { apiKey: FAKE_ELEVENLABS_KEY },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      success: true,
      message: "ElevenLabs API key is valid",
      data: { availableVoices: FAKE_VOICES },
    });
    const bad = await call(t, "POST", "/api/settings/test-elevenlabs", {
      token: admin,
      body: { apiKey: "wrong" },
    });
    expect(bad.statusCode).toBe(400);
    expect(messageOf(bad)).toBe("Invalid API key");
  });

  it("uploads images checked by content, serves them safely, deletes replaced ones", async () => {
    const png = await upload(t, "/api/settings/upload", admin, [
      { field: "lightThemeLogo", filename: "logo.png", content: PNG_1PX, contentType: "image/png" },
    ]);
    expect(png.statusCode, png.body).toBe(200);
    expect(png.json().message).toBe("Light Theme Logo uploaded successfully");
    const first = png.json().data.lightThemeLogo as string;
    expect(first).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    const served = await t.app.inject({ method: "GET", url: first });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["cache-control"]).toContain("immutable");
    expect(served.rawPayload.equals(PNG_1PX)).toBe(true);
    expect((await call(t, "GET", "/api/settings")).json().lightThemeLogo).toBe(first);

    // Replacing it deletes the earlier file.
    const svg = await upload(t, "/api/settings/upload", admin, [
      {
        field: "lightThemeLogo",
        filename: "logo.svg",
        content: SVG_WITH_SCRIPT,
        contentType: "image/svg+xml",
      },
    ]);
    expect(svg.statusCode, svg.body).toBe(200);
    const second = svg.json().data.lightThemeLogo as string;
    expect(second).toMatch(/\.svg$/);
    expect((await t.app.inject({ method: "GET", url: first })).statusCode).toBe(404);
    const servedSvg = await t.app.inject({ method: "GET", url: second });
    expect(servedSvg.headers["content-type"]).toBe("image/svg+xml");
    expect(servedSvg.headers["content-security-policy"]).toBe(SVG_CSP);
    expect(servedSvg.headers["x-content-type-options"]).toBe("nosniff");

    const ico = await upload(t, "/api/settings/upload", admin, [
      { field: "favicon", filename: "favicon.ico", content: icoFile() },
    ]);
    expect(ico.statusCode, ico.body).toBe(200);
    const favicon = ico.json().data.favicon as string;
    expect((await t.app.inject({ method: "GET", url: favicon })).headers["content-type"]).toBe(
      "image/x-icon",
    );

    const ai = await upload(t, "/api/settings/upload", admin, [
      { field: "aiProfileImage", filename: "me.jpg", content: JPEG_HEAD },
    ]);
    expect(ai.statusCode, ai.body).toBe(200);
    expect(ai.json().message).toBe("AI Profile Image uploaded successfully");
    expect(ai.json().data.aiProfile.aiProfileImage).toMatch(/\.jpg$/);

    // DELETE clears the setting and the file.
    const removed = await call(t, "DELETE", "/api/settings/image/light", { token: admin });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data.lightThemeLogo).toBe("");
    expect((await t.app.inject({ method: "GET", url: second })).statusCode).toBe(404);
    expect(
      (await call(t, "DELETE", "/api/settings/image/banner", { token: admin })).statusCode,
    ).toBe(400);
  });

  it("refuses wrong types, oversized files, paths in names and wrong fields with 400", async () => {
    const refuse = async (parts: Parameters<typeof upload>[3], pattern: RegExp) => {
      const response = await upload(t, "/api/settings/upload", admin, parts);
      expect(response.statusCode, response.body).toBe(400);
      expect(messageOf(response)).toMatch(pattern);
    };
    await refuse(
      [
        {
          field: "darkThemeLogo",
          filename: "logo.png",
          content: "just some text",
          contentType: "image/png",
        },
      ],
      /Only PNG/,
    );
    await refuse(
      [{ field: "favicon", filename: "favicon.jpg", content: JPEG_HEAD }],
      /favicon must be an ICO, PNG or SVG/,
    );
    await refuse(
      [
        {
          field: "darkThemeLogo",
          filename: "big.png",
          content: Buffer.concat([PNG_1PX, Buffer.alloc(70 * 1024)]),
        },
      ],
      /^File is too large \(max 5 MB\)$/,
    );
    for (const filename of ["../x.png", "a/b.png", "a\\b.png"]) {
      await refuse(
        [{ field: "darkThemeLogo", filename, content: PNG_1PX }],
        /must not contain a path/,
      );
    }
    await refuse([{ field: "banner", filename: "x.png", content: PNG_1PX }], /^banner: /);
    await refuse(
      [
        { field: "darkThemeLogo", filename: "a.png", content: PNG_1PX },
        { field: "favicon", filename: "b.png", content: PNG_1PX },
      ],
      /one file at a time/,
    );
    const noFile = await call(t, "POST", "/api/settings/upload", { token: admin, body: {} });
    expect(noFile.statusCode).toBe(400);
    // Nothing is left behind in the temporary folder.
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(t.app.uploads.temporaryDirectory)).toEqual([]);
  });

  it("never writes a key to the log", () => {
    const log = logLines.join("");
    expect(log.length).toBeGreaterThan(0);
    for (const key of [
      FAKE_OPENAI_KEY,
      FAKE_STRIPE_KEY,
      FAKE_ELEVENLABS_KEY,
      "pk_test_publishable_123456",
      "sk-wrong-key-0000",
    ]) {
      expect(log).not.toContain(key);
    }
  });
});
