import { APP_THEME_COLOR } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";

describe("GET /manifest.webmanifest", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const manifest = () => t.app.inject({ method: "GET", url: "/manifest.webmanifest" });

  it("answers an installable manifest from the defaults, as application/manifest+json", async () => {
    const response = await manifest();
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/manifest+json; charset=utf-8");
    expect(response.json()).toEqual({
      id: "/",
      name: "Twinline",
      short_name: "Twinline",
      description: "Chat and call AI Celebrity Assistant, the official AI twin.",
      start_url: "/",
      scope: "/",
      display: "standalone",
      orientation: "any",
      theme_color: APP_THEME_COLOR,
      background_color: "#ffffff",
      icons: [
        { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
        { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
        {
          src: "/icons/icon-maskable-512.png",
          sizes: "512x512",
          type: "image/png",
          purpose: "maskable",
        },
      ],
    });
  });

  it("follows the admin's settings at once, without a rebuild, and revalidates by ETag", async () => {
    const before = await manifest();
    expect(before.headers["cache-control"]).toBe("no-cache");
    const etag = String(before.headers.etag);
    const unchanged = await t.app.inject({
      method: "GET",
      url: "/manifest.webmanifest",
      headers: { "if-none-match": etag },
    });
    expect(unchanged.statusCode).toBe(304);

    await t.app.settings.update({
      siteName: "Nova Lane Official",
      favicon: "/uploads/mark.svg",
      aiProfile: { name: "Nova" },
    });
    const after = await t.app.inject({
      method: "GET",
      url: "/manifest.webmanifest",
      headers: { "if-none-match": etag },
    });
    expect(after.statusCode).toBe(200);
    const body = after.json();
    expect(body.name).toBe("Nova Lane Official");
    // Launchers cut long labels: the first word when it fits.
    expect(body.short_name).toBe("Nova");
    expect(body.description).toBe("Chat and call Nova, the official AI twin.");
    // An SVG favicon scales to any size, so it leads; the built-in sizes stay for launchers.
    expect(body.icons[0]).toEqual({
      src: "/uploads/mark.svg",
      sizes: "any",
      type: "image/svg+xml",
      purpose: "any",
    });
    expect(body.icons.map((icon: { sizes: string }) => icon.sizes)).toEqual([
      "any",
      "192x192",
      "512x512",
      "512x512",
    ]);
  });

  it("lists no raster favicon, whose pixel size it cannot state", async () => {
    await t.app.settings.update({ favicon: "/uploads/mark.png" });
    const body = (await manifest()).json();
    expect(body.icons.map((icon: { src: string }) => icon.src)).not.toContain("/uploads/mark.png");
    expect(body.icons).toHaveLength(3);
  });

  it("is not in the OpenAPI document (it is a browser file, not API)", async () => {
    const document = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    expect(Object.keys(document.paths ?? {})).not.toContain("/manifest.webmanifest");
  });
});
