import {
  CHECKOUT_RETURN_PATHS,
  CONSENT_VERSIONS,
  checkoutSessionResponseSchema,
} from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, signUp } from "../../../../test/accounts.ts";
import { createPackage } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { Browser } from "../../../../test/loopback-http.ts";

/**
 * Checkout over real HTTP on loopback: the hosted (sandbox) page and the return pages are at the
 * origin the buyer is signed in at, when PUBLIC_URL is unset and that origin is this server's
 * own address; never at a Host someone else names (decision 0057).
 */
async function listening(env: NodeJS.ProcessEnv = {}) {
  const t = await createTestApp({ env });
  const url = new URL(await t.app.listen({ host: "127.0.0.1", port: 0 }));
  const admin = (await adminSession(t)).token;
  const pack = await createPackage(t, admin, { name: "Origin Pack" });
  return { t, port: Number(url.port), packageId: pack._id };
}

async function checkoutAt(
  deployment: { t: TestApp; port: number; packageId: string },
  host: string,
) {
  const { token } = await signUp(deployment.t);
  const browser = new Browser(`http://127.0.0.1:${deployment.port}`, "127.0.0.1");
  const headers = { host, authorization: `Bearer ${token}` };
  const answer = await browser.call(
    "POST",
    "/api/payments/create-checkout-session",
    { packageId: deployment.packageId, consentVersion: CONSENT_VERSIONS.credits },
    headers,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const sessionId = String(answer.body.sessionId);
  const view = await browser.send("GET", `/api/payments/sandbox/sessions/${sessionId}`, undefined, {
    authorization: `Bearer ${token}`,
  });
  const session = checkoutSessionResponseSchema.parse(view.body).data;
  const path = CHECKOUT_RETURN_PATHS.packageSuccess.replace("{CHECKOUT_SESSION_ID}", sessionId);
  return { url: String(answer.body.url), successUrl: session.successUrl, sessionId, path };
}

describe("checkout with PUBLIC_URL unset", () => {
  let deployment: Awaited<ReturnType<typeof listening>>;
  beforeAll(async () => {
    deployment = await listening();
  });
  afterAll(() => deployment?.t.close());

  it("comes back to the origin the buyer opened: 127.0.0.1 or localhost at the server's port", async () => {
    for (const name of ["127.0.0.1", "localhost", "LOCALHOST"]) {
      const origin = `http://${name.toLowerCase()}:${deployment.port}`;
      const { url, successUrl, sessionId, path } = await checkoutAt(
        deployment,
        `${name}:${deployment.port}`,
      );
      expect(url).toBe(`${origin}/checkout/sandbox/${sessionId}`);
      expect(successUrl).toBe(`${origin}${path}`);
    }
  });

  it("never at a Host that is not this server's address and port: the default PUBLIC_URL", async () => {
    const fallback = deployment.t.config.publicUrl;
    expect(fallback).toBe(`http://localhost:${deployment.t.config.port}`);
    for (const host of [
      "evil.example",
      `evil.example:${deployment.port}`,
      `127.0.0.2:${deployment.port}`,
      `[::1]:${deployment.port}`,
      `127.0.0.1:${deployment.port + 1}`,
      `localhost.evil.example:${deployment.port}`,
      `user@127.0.0.1:${deployment.port}`,
    ]) {
      const { url, successUrl, sessionId, path } = await checkoutAt(deployment, host);
      expect(url, host).toBe(`${fallback}/checkout/sandbox/${sessionId}`);
      expect(successUrl, host).toBe(`${fallback}${path}`);
    }
  });
});

describe("checkout with PUBLIC_URL set", () => {
  let deployment: Awaited<ReturnType<typeof listening>>;
  beforeAll(async () => {
    deployment = await listening({ PUBLIC_URL: "https://twinline.example" });
  });
  afterAll(() => deployment?.t.close());

  it("always comes back to PUBLIC_URL, whatever the Host", async () => {
    const { url, successUrl, sessionId, path } = await checkoutAt(
      deployment,
      `127.0.0.1:${deployment.port}`,
    );
    expect(url).toBe(`https://twinline.example/checkout/sandbox/${sessionId}`);
    expect(successUrl).toBe(`https://twinline.example${path}`);
  });
});
