import { TRIAL_DEVICE_HEADER } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";

// Stand-ins for the state-changing routes later issues add, and for a payment webhook.
const probes: FastifyPluginAsync = async (app) => {
  for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
    app.route({ method, url: "/api/probe", handler: async () => ({ success: true }) });
  }
  app.post("/api/probe-webhook", { config: { csrf: false } }, async () => ({ received: true }));
};

/** What a browser holds after GET /api/csrf-token: the token, and the cookie to send back. */
async function fetchToken(t: TestApp) {
  const response = await t.app.inject({ method: "GET", url: "/api/csrf-token" });
  expect(response.statusCode).toBe(200);
  const cookie = response.cookies.find((c) => c.name === "_csrf");
  if (!cookie) throw new Error("no _csrf cookie");
  return { token: response.json().csrfToken as string, cookie };
}

describe("CSRF protection", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ register: probes });
  });
  afterAll(() => t?.close());

  it("GET /api/csrf-token answers a token and sets a signed, httpOnly, strict cookie", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/csrf-token" });
    expect(Object.keys(response.json())).toEqual(["csrfToken"]);
    expect(response.json().csrfToken).toEqual(expect.any(String));
    const cookie = response.cookies.find((c) => c.name === "_csrf");
    expect(cookie).toMatchObject({ path: "/", httpOnly: true, sameSite: "Strict" });
    // Signed: "<secret>.<signature>".
    expect(cookie?.value).toMatch(/\..+/);
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
    it(`${method} without a token is refused with 403 naming the CSRF token`, async () => {
      const response = await t.app.inject({ method, url: "/api/probe", payload: {} });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        success: false,
        message: "Invalid or missing CSRF token",
      });
    });
  }

  it("lets the embed frame's device header stand for the token (no cross-site page can send it)", async () => {
    // The frame on another site has no CSRF cookie; it sends the trial's device header.
    const framed = await t.app.inject({
      method: "POST",
      url: "/api/probe",
      headers: { [TRIAL_DEVICE_HEADER]: "new" },
      payload: {},
    });
    expect(framed.statusCode).toBe(200);
    // What makes that sound: no CORS preflight is granted, so another site's page cannot send it.
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: "/api/probe",
      headers: {
        origin: "https://attacker.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": TRIAL_DEVICE_HEADER,
      },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(preflight.headers["access-control-allow-headers"]).toBeUndefined();
  });

  it("passes with the token and its cookie", async () => {
    const { token, cookie } = await fetchToken(t);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/probe",
      headers: { "csrf-token": token },
      cookies: { _csrf: cookie.value },
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
  });

  it("refuses a wrong token, a token without its cookie, and a forged cookie", async () => {
    const { token, cookie } = await fetchToken(t);
    const attempts: { headers: Record<string, string>; cookies: Record<string, string> }[] = [
      { headers: { "csrf-token": "made-up" }, cookies: { _csrf: cookie.value } },
      { headers: { "csrf-token": token }, cookies: {} },
      { headers: { "csrf-token": token }, cookies: { _csrf: `${cookie.value.split(".")[0]}.bad` } },
    ];
    for (const attempt of attempts) {
      const response = await t.app.inject({ method: "POST", url: "/api/probe", ...attempt });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toContain("CSRF token");
    }
  });

  it("does not accept the token from the body instead of the header", async () => {
    const { token, cookie } = await fetchToken(t);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/probe",
      cookies: { _csrf: cookie.value },
      payload: { _csrf: token },
    });
    expect(response.statusCode).toBe(403);
  });

  it("exempts a route marked csrf: false (payment webhooks)", async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/probe-webhook", payload: {} });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true });
  });

  it("never blocks reads", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/settings" });
    expect(response.statusCode).toBe(200);
  });
});
