import { readdir } from "node:fs/promises";
import { join } from "node:path";
import {
  defaultPublicSettings,
  defaultSiteSettings,
  type UpdateSettingsRequest,
} from "@twinline/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { PNG_1PX, upload } from "../../../test/multipart.ts";

const body = (overrides: Partial<UpdateSettingsRequest> = {}): UpdateSettingsRequest => ({
  ...structuredClone(defaultSiteSettings),
  apiKeys: { openai: "", stripe: { secret: "", publishable: "" }, elevenLabs: "" },
  ...overrides,
});

describe("PUT /api/settings is one transaction; parallel image uploads orphan nothing", () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await adminSession(t)).token;
  });
  afterAll(async () => t?.close());

  const read = async () =>
    (await call(t, "GET", "/api/admin/settings", { token: admin })).json().data;

  it("a save that fails after the keys were written changes neither keys nor settings", async () => {
    const first = await call(t, "PUT", "/api/settings", {
      token: admin,
      body: body({ apiKeys: { ...body().apiKeys, openai: "sk-first-key-abcdefgh-0001" } }),
    });
    expect(first.statusCode, first.body).toBe(200);

    // The database refuses this settings row (as a full disk or a lost connection would):
    // the keys are written first in the transaction, the settings after.
    await t.app.database.db.execute(sql`
      create or replace function refuse_marked_settings() returns trigger as $$
      begin
        if new.data->'aiProfile'->>'name' = 'refused by the database' then
          raise exception 'settings write refused';
        end if;
        return new;
      end $$ language plpgsql`);
    await t.app.database.db.execute(sql`
      create trigger refuse_marked_settings before update on site_settings
      for each row execute function refuse_marked_settings()`);
    try {
      const failed = await call(t, "PUT", "/api/settings", {
        token: admin,
        body: body({
          maxWordsPerMessage: 42,
          aiProfile: { ...defaultPublicSettings.aiProfile, name: "refused by the database" },
          apiKeys: { ...body().apiKeys, openai: "sk-second-key-abcdefgh-0002" },
        }),
      });
      expect(failed.statusCode).toBe(500);
      const after = await read();
      expect(after.apiKeys.openai).toMatch(/0001$/);
      expect(after.maxWordsPerMessage).toBe(defaultPublicSettings.maxWordsPerMessage);
      expect(after.aiProfile.name).toBe(defaultPublicSettings.aiProfile.name);
      // The provider keys the app uses did not change either (their cache was dropped).
      expect((await t.app.providerKeys.read()).openai).toBe("sk-first-key-abcdefgh-0001");
    } finally {
      await t.app.database.db.execute(sql`drop trigger refuse_marked_settings on site_settings`);
    }
    const ok = await call(t, "PUT", "/api/settings", {
      token: admin,
      body: body({ apiKeys: { ...body().apiKeys, openai: "sk-second-key-abcdefgh-0002" } }),
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.app.providerKeys.read()).openai).toBe("sk-second-key-abcdefgh-0002");
  });

  it("parallel uploads to one image field leave exactly one file, the one in the settings", async () => {
    const uploads = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        upload(t, "/api/settings/upload", admin, [
          { field: "lightThemeLogo", filename: `logo${i}.png`, content: PNG_1PX },
        ]),
      ),
    );
    for (const response of uploads) expect(response.statusCode, response.body).toBe(200);
    const logo: string = (await read()).lightThemeLogo;
    expect(logo).toMatch(/^\/uploads\/.+\.png$/);
    const files = (await readdir(join(t.dataDir, "uploads"))).filter((name) =>
      name.endsWith(".png"),
    );
    expect(files).toEqual([logo.slice("/uploads/".length)]);
  });
});
