import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  defaultPublicSettings,
  EMBED_ORIGIN_MESSAGES,
  EMBED_ORIGINS_LIMITS,
  type UpdateSettingsRequest,
} from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call } from "../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";

/**
 * The twin on the creator's site (issue 27 item 5; docs/decisions/0085-embed-widget.md): the
 * embed page may be framed by exactly the listed origins, every other page by none; the list is
 * validated; embed.js is served to other sites.
 */

const EMBED_JS = "(() => { /* the bubble */ })();";

function fakeWebBuild(): string {
  const dist = mkdtempSync(join(tmpdir(), "twinline-embed-dist-"));
  mkdirSync(join(dist, "assets"));
  writeFileSync(join(dist, "index.html"), "<!doctype html><div id=root></div>");
  writeFileSync(join(dist, "embed.js"), EMBED_JS);
  return dist;
}

const body = (overrides: Partial<UpdateSettingsRequest> = {}): UpdateSettingsRequest => ({
  ...structuredClone(defaultPublicSettings),
  apiKeys: { openai: "", stripe: { secret: "", publishable: "" }, elevenLabs: "" },
  ...overrides,
});

function frameAncestors(csp: unknown): string | undefined {
  return /(?:^|;)\s*frame-ancestors ([^;]*)/.exec(String(csp))?.[1];
}

describe("the embed page and its origins", () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ webDistDir: fakeWebBuild() });
    admin = (await adminSession(t)).token;
  });
  afterAll(async () => t?.close());

  const save = (embedOrigins: unknown) =>
    call(t, "PUT", "/api/settings", {
      token: admin,
      body: { ...body(), embedOrigins } as UpdateSettingsRequest,
    });

  it("is unframeable while no origin is listed, like every page", async () => {
    const page = await t.app.inject({ method: "GET", url: "/embed?theme=dark" });
    expect(page.statusCode).toBe(200);
    expect(frameAncestors(page.headers["content-security-policy"])).toBe("'none'");
  });

  it("lists exactly the configured origins in frame-ancestors, and only on the embed page", async () => {
    const saved = await save([
      "https://creator.example",
      "http://localhost:4000",
      "https://creator.example",
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.embedOrigins).toEqual([
      "https://creator.example",
      "http://localhost:4000",
    ]);

    const page = await t.app.inject({ method: "GET", url: "/embed?theme=light" });
    expect(page.statusCode).toBe(200);
    expect(frameAncestors(page.headers["content-security-policy"])).toBe(
      "https://creator.example http://localhost:4000",
    );
    expect(page.headers["x-frame-options"]).toBeUndefined();
    // The rest of the page policy is unchanged.
    expect(page.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(page.headers["content-security-policy"]).toContain("object-src 'none'");

    // Every other page, the popup and the API stay unframeable.
    for (const url of ["/", "/auth", "/dashboard/chat", "/embed/sign-in", "/embedded", "/nope"]) {
      const other = await t.app.inject({ method: "GET", url });
      expect(frameAncestors(other.headers["content-security-policy"]), url).toBe("'none'");
      expect(other.headers["x-frame-options"], url).toBe("SAMEORIGIN");
    }
    const api = await t.app.inject({ method: "GET", url: "/api/settings" });
    expect(frameAncestors(api.headers["content-security-policy"])).toBe("'none'");
  });

  it("keeps the sign-in popup's opener: no opener isolation on /embed/sign-in only", async () => {
    const popup = await t.app.inject({ method: "GET", url: "/embed/sign-in?tab=signup" });
    expect(popup.statusCode).toBe(200);
    expect(popup.headers["cross-origin-opener-policy"]).toBe("unsafe-none");
    const auth = await t.app.inject({ method: "GET", url: "/auth" });
    expect(auth.headers["cross-origin-opener-policy"]).toBe("same-origin");
  });

  it("refuses a bad list with a 400 naming the field, and keeps the stored one", async () => {
    const before = await t.app.inject({ method: "GET", url: "/embed" });
    for (const bad of [
      ["http://creator.example"],
      ["https://creator.example/page"],
      ["https://creator.example; script-src *"],
      ["*"],
      [`https://${"a".repeat(EMBED_ORIGINS_LIMITS.maxLength)}.example`],
      Array.from(
        { length: EMBED_ORIGINS_LIMITS.maxOrigins + 1 },
        (_, i) => `https://s${i}.example`,
      ),
      "https://creator.example",
    ]) {
      const answer = await save(bad);
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
      expect(answer.json().message, JSON.stringify(bad)).toMatch(/^embedOrigins/);
    }
    const tooMany = await save(
      Array.from(
        { length: EMBED_ORIGINS_LIMITS.maxOrigins + 1 },
        (_, i) => `https://s${i}.example`,
      ),
    );
    expect(tooMany.json().message).toContain(EMBED_ORIGIN_MESSAGES.tooMany);
    const after = await t.app.inject({ method: "GET", url: "/embed" });
    expect(after.headers["content-security-policy"]).toBe(
      before.headers["content-security-policy"],
    );
  });

  it("gives the admin the snippet's script address at PUBLIC_URL", async () => {
    const settings = (await call(t, "GET", "/api/admin/settings", { token: admin })).json().data;
    expect(settings.embedScriptUrl).toBe(new URL("/embed.js", t.config.publicUrl).href);
  });

  it("serves embed.js as JavaScript other sites may load, cached an hour", async () => {
    const script = await t.app.inject({ method: "GET", url: "/embed.js" });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe(EMBED_JS);
    expect(script.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
    expect(script.headers["cache-control"]).toBe("public, max-age=3600");
    expect(script.headers["cross-origin-resource-policy"]).toBe("cross-origin");
  });
});
