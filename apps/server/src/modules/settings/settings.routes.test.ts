import { defaultPublicSettings, publicSettingsSchema } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";

describe("GET /api/settings", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("answers the spec's defaults on a fresh database, to anyone", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/settings" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    const body = response.json();
    expect(body).toMatchObject({
      defaultCredits: 100,
      enableVoiceConversation: true,
      maxWordsPerMessage: 500,
      freeMessagesPerDay: 5,
      creditsPerMinute: 5,
      aiProfile: { name: "AI Celebrity Assistant", enableVoiceConversation: true },
    });
    expect(body).toEqual(defaultPublicSettings);
  });

  it("is the bare settings object: no envelope, no provider keys", async () => {
    const body = (await t.app.inject({ method: "GET", url: "/api/settings" })).json();
    expect(publicSettingsSchema.strict().safeParse(body).success).toBe(true);
    expect(body).not.toHaveProperty("success");
    expect(JSON.stringify(body)).not.toMatch(/apiKey|secret|openai|stripe|elevenLabs/i);
    // Nor the operator's own settings: the trial's daily caps stay the admin's.
    expect(JSON.stringify(body)).not.toMatch(/PerAddressPerDay|anonymousMessagesPerDay/);
  });

  it("lets browsers revalidate with an ETag", async () => {
    const first = await t.app.inject({ method: "GET", url: "/api/settings" });
    expect(first.headers["cache-control"]).toBe("no-cache");
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await t.app.inject({
      method: "GET",
      url: "/api/settings",
      headers: { "if-none-match": String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");

    await t.app.settings.update({ freeMessagesPerDay: 7 });
    const changed = await t.app.inject({
      method: "GET",
      url: "/api/settings",
      headers: { "if-none-match": String(etag) },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().freeMessagesPerDay).toBe(7);
  });

  it("is described in the OpenAPI document", async () => {
    const document = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    const schema =
      document.paths["/api/settings"].get.responses["200"].content["application/json"].schema;
    expect(Object.keys(schema.properties)).toEqual(Object.keys(defaultPublicSettings));
  });
});
