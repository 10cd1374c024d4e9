import { defaultSiteSettings, publicPart } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";

const getSettings = async (t: TestApp) =>
  (await t.app.inject({ method: "GET", url: "/api/settings" })).json();

describe("settings service", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("get() answers the defaults before any save", async () => {
    expect(await t.app.settings.get()).toEqual(defaultSiteSettings);
  });

  it("update() saves a subset, merges nested objects field by field, and serves it at once", async () => {
    await getSettings(t); // fills the cache, which the update must not leave stale
    const saved = await t.app.settings.update({
      creditsPerMinute: 8,
      aiProfile: { name: "Nova", promotionalMessage: "Talk to me" },
      socialMediaProfiles: { instagram: "https://instagram.com/nova" },
    });
    expect(saved).toMatchObject({
      creditsPerMinute: 8,
      defaultCredits: 100,
      aiProfile: {
        name: "Nova",
        promotionalMessage: "Talk to me",
        enableVoiceConversation: true,
        aiProfileImage: "",
      },
      socialMediaProfiles: { instagram: "https://instagram.com/nova", twitter: "" },
    });
    // GET /api/settings answers the public part of what was saved, at once.
    expect(await getSettings(t)).toEqual(publicPart(saved));

    await t.app.settings.update({ aiProfile: { aiProfileImage: "/uploads/nova.png" } });
    const after = await getSettings(t);
    expect(after.aiProfile).toEqual({
      name: "Nova",
      promotionalMessage: "Talk to me",
      enableVoiceConversation: true,
      aiProfileImage: "/uploads/nova.png",
    });
    expect(after.creditsPerMinute).toBe(8);
  });

  it("update() refuses invalid values and keeps what was saved", async () => {
    const before = await getSettings(t);
    await expect(t.app.settings.update({ creditsPerMinute: 0 })).rejects.toBeInstanceOf(ZodError);
    await expect(
      // @ts-expect-error: a wrong type, as an unchecked caller could send it
      t.app.settings.update({ maxWordsPerMessage: "many" }),
    ).rejects.toThrow(/maxWordsPerMessage/);
    expect(await getSettings(t)).toEqual(before);
  });

  it("concurrent updates of different fields both land", async () => {
    await Promise.all([
      t.app.settings.update({ defaultCredits: 250 }),
      t.app.settings.update({ freeMessagesPerDay: 9 }),
    ]);
    expect(await getSettings(t)).toMatchObject({ defaultCredits: 250, freeMessagesPerDay: 9 });
  });

  it("the returned settings cannot be changed by accident", async () => {
    const settings = await t.app.settings.get();
    expect(() => {
      (settings as { defaultCredits: number }).defaultCredits = 1;
    }).toThrow(TypeError);
  });
});

describe("the provider keys, cached in process", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("are read once, and every write reaches the very next provider call", async () => {
    const first = await t.app.providerKeys.read();
    expect(first).toEqual({});
    expect(await t.app.providerKeys.read()).toBe(first); // served from memory
    expect(Object.isFrozen(first)).toBe(true);
    expect((await t.app.providers.modes()).llm).toBe("offline");

    await t.app.providerKeys.write({ openai: "sk-cached-key-0001" });
    expect((await t.app.providers.modes()).llm).toBe("openai");
    expect((await t.app.providerKeys.read()).openai).toBe("sk-cached-key-0001");
    const cached = await t.app.providerKeys.read();
    expect(await t.app.providerKeys.read()).toBe(cached);

    await t.app.providerKeys.write({ openai: null });
    expect((await t.app.providers.modes()).llm).toBe("offline");
    expect(await t.app.providerKeys.read()).toEqual({});
  });
});

describe.runIf(process.env.TWINLINE_TEST_DB === "postgres")(
  "settings across instances on one PostgreSQL",
  () => {
    it("an update on one instance reaches the cached settings of another (LISTEN/NOTIFY)", async () => {
      const first = await createTestApp();
      const second = await createTestApp({ sameDatabaseAs: first });
      try {
        expect((await getSettings(second)).aiProfile.name).toBe("AI Celebrity Assistant");
        await first.app.settings.update({ aiProfile: { name: "Changed elsewhere" } });
        await expect
          .poll(async () => (await getSettings(second)).aiProfile.name, { timeout: 5_000 })
          .toBe("Changed elsewhere");
      } finally {
        await second.close();
        await first.close();
      }
    });

    it("a key saved on one instance reaches the providers of another (LISTEN/NOTIFY)", async () => {
      const first = await createTestApp();
      const second = await createTestApp({ sameDatabaseAs: first });
      try {
        // The second instance caches the absence of keys.
        expect((await second.app.providers.modes()).llm).toBe("offline");
        expect((await second.app.providers.modes()).llm).toBe("offline");
        await first.app.providerKeys.write({ openai: "sk-elsewhere-key-0002" });
        await expect
          .poll(async () => (await second.app.providers.modes()).llm, { timeout: 5_000 })
          .toBe("openai");
        expect((await second.app.providerKeys.read()).openai).toBe("sk-elsewhere-key-0002");
        await first.app.providerKeys.write({ openai: null });
        await expect
          .poll(async () => (await second.app.providers.modes()).llm, { timeout: 5_000 })
          .toBe("offline");
      } finally {
        await second.close();
        await first.close();
      }
    });
  },
);
