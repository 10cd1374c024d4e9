import { SITE_PAGE_MESSAGES, SITE_PAGES } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";

describe("site pages: terms, privacy, refunds, about, contact, faq", () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.settings.update({ siteName: "Velvet Lounge", aiProfile: { name: "Nova Star" } });
    admin = (await adminSession(t)).token;
  });
  afterAll(() => t?.close());

  it("every page answers its built-in text naming the persona and the operator", async () => {
    for (const { slug, title } of SITE_PAGES) {
      const response = await call(t, "GET", `/api/pages/${slug}`);
      expect(response.statusCode, slug).toBe(200);
      const { data } = response.json();
      expect(data).toMatchObject({ slug, title });
      expect(data.content).not.toContain("{{");
    }
    const about = (await call(t, "GET", "/api/pages/about")).json().data.content;
    expect(about).toContain("Nova Star");
    expect(about).toContain("Velvet Lounge");
  });

  it("the built-in terms and about state the operator's minimum age, not a fixed 18", async () => {
    await t.app.settings.update({ minimumAge: 21 });
    try {
      for (const slug of ["terms", "about"]) {
        const content = (await call(t, "GET", `/api/pages/${slug}`)).json().data.content;
        expect(content, slug).toContain("21 or older");
        expect(content, slug).not.toContain("18 or older");
      }
    } finally {
      await t.app.settings.update({ minimumAge: 18 });
    }
  });

  it("an unknown page is a 404", async () => {
    const response = await call(t, "GET", "/api/pages/cookies");
    expect(response.statusCode).toBe(404);
    expect(messageOf(response)).toBe("Page not found");
  });

  it("the admin reads the placeholders, saves markdown, and empty brings the default back", async () => {
    const list = await call(t, "GET", "/api/admin/pages", { token: admin });
    expect(list.statusCode).toBe(200);
    const terms = list.json().data.find((page: { slug: string }) => page.slug === "terms");
    expect(terms).toMatchObject({ isDefault: true });
    expect(terms.content).toContain("{{persona}}");

    const saved = await call(t, "PUT", "/api/admin/pages/terms", {
      token: admin,
      body: { content: "# Our terms\n\nBe kind to {{persona}}, a $1 AI." },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      message: SITE_PAGE_MESSAGES.saved,
      data: { slug: "terms", isDefault: false },
    });
    expect((await call(t, "GET", "/api/pages/terms")).json().data.content).toBe(
      "# Our terms\n\nBe kind to Nova Star, a $1 AI.",
    );

    await call(t, "PUT", "/api/admin/pages/terms", { token: admin, body: { content: "  " } });
    const back = (await call(t, "GET", "/api/pages/terms")).json().data.content;
    expect(back).toContain("These terms govern your use of Velvet Lounge");
  });

  it("only the admin saves, and bad input is a 400 naming the field", async () => {
    const { token } = await signUp(t);
    const asUser = await call(t, "PUT", "/api/admin/pages/faq", {
      token,
      body: { content: "x" },
    });
    expect(asUser.statusCode).toBe(403);
    const anonymous = await call(t, "PUT", "/api/admin/pages/faq", { body: { content: "x" } });
    expect(anonymous.statusCode).toBe(401);
    const unknown = await call(t, "PUT", "/api/admin/pages/cookies", {
      token: admin,
      body: { content: "x" },
    });
    expect(unknown.statusCode).toBe(400);
    const tooLong = await call(t, "PUT", "/api/admin/pages/faq", {
      token: admin,
      body: { content: "x".repeat(50_001) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(JSON.stringify(tooLong.json())).toContain("content");
  });
});
