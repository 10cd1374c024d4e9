import { CONSENT_VERSIONS } from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, signUp } from "../../../test/accounts.ts";
import { createPackage, createPlan } from "../../../test/billing.ts";
import type { TestApp } from "../../../test/create-test-app.ts";
import { queuedFor, settleMail } from "../../../test/fan-mail.ts";
import { startTestSmtp, type TestSmtp } from "../../../test/smtp.ts";
import { useStripeSuite } from "../../../test/stripe-app.ts";
import { deliver } from "../../../test/stripe-webhooks.ts";

type Json = Record<string, unknown>;

/**
 * Issue 26 item 4 with Stripe (the real SDK against the local fake) and real SMTP: every
 * webhook delivered twice, and a second event about the same object, send each mail once.
 */
describe("fan e-mail over SMTP (Stripe webhooks, replayed)", () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let fake: FakeStripe;
  let admin: string;

  // Registered before the app's hooks, so the mail server starts first and closes last.
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
  });
  useStripeSuite(
    (suite) => {
      ({ t, fake, admin } = suite);
    },
    () => ({ env: { SMTP_URL: smtp.url, MAIL_FROM: "Nova <hi@nova.example>" } }),
  );

  /** Delivers each event twice, as Stripe may. */
  const deliverTwice = async (...events: Json[]) => {
    for (const event of [...events, ...events]) {
      expect((await deliver(t, event)).statusCode).toBe(200);
    }
    await settleMail(t);
  };
  const subjectsTo = (email: string) =>
    smtp.received
      .filter((mail) => mail.to.includes(email.toLowerCase()))
      .map((mail) => /^Subject: (.*)$/m.exec(mail.decoded)?.[1] ?? "");
  const checkout = async (token: string, path: string, body: object) => {
    const response = await call(t, "POST", path, { token, body });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { sessionId: string }).sessionId;
  };

  it("a package bought through Checkout: one receipt over SMTP, in HTML and text", async () => {
    const pack = await createPackage(t, admin, { name: "Stripe Pack", credits: 200, price: 12 });
    const fan = await signUp(t);
    const sessionId = await checkout(fan.token, "/api/payments/create-checkout-session", {
      packageId: pack._id,
      consentVersion: CONSENT_VERSIONS.credits,
    });
    const done = await fake.completeCheckout(sessionId);
    await deliverTwice(
      fake.event("checkout.session.completed", done.session),
      // Another event about the same session (a second delivery path): still nothing more.
      fake.event("checkout.session.completed", done.session),
    );
    await t.app.fanMail.sweep();
    expect(subjectsTo(fan.user.email)).toEqual(["Your receipt from Twinline"]);
    const mail = await smtp.waitFor(fan.user.email);
    expect(mail.decoded).toContain("Content-Type: text/plain");
    expect(mail.decoded).toContain("Content-Type: text/html");
    expect(mail.decoded).toContain("Amount: $12.00");
    expect(mail.decoded).toContain(`Transaction ID: ${String(done.session.payment_intent)}`);
    expect(mail.decoded).toContain("From: Nova <hi@nova.example>");
  });

  it("subscription, renewal, failed renewal, cancellation: each once", async () => {
    const plan = await createPlan(t, admin, { name: "Stripe Club", price: 8 });
    const fan = await signUp(t);
    const sessionId = await checkout(fan.token, "/api/subscriptions/create-checkout", {
      planId: plan._id,
      consentVersion: CONSENT_VERSIONS.plan,
    });
    const done = await fake.completeCheckout(sessionId);
    const subscriptionId = String((done.subscription as Json).id);
    await deliverTwice(
      fake.event("checkout.session.completed", done.session),
      fake.event("customer.subscription.created", done.subscription as Json),
      fake.event("invoice.paid", done.invoice as Json),
    );
    const renewal = await fake.renew(subscriptionId);
    await deliverTwice(
      fake.event("customer.subscription.updated", renewal.subscription),
      fake.event("invoice.paid", renewal.invoice),
    );
    const failure = await fake.failRenewal(subscriptionId);
    await deliverTwice(fake.event("invoice.payment_failed", failure.invoice));
    const canceled = await call(t, "POST", "/api/subscriptions/cancel", { token: fan.token });
    expect(canceled.statusCode, canceled.body).toBe(200);
    await settleMail(t);
    // The webhook of that cancellation comes after the answer: nothing more.
    await deliverTwice(
      fake.event("customer.subscription.updated", fake.subscriptions.get(subscriptionId) as Json),
    );
    await t.app.fanMail.sweep();

    expect(subjectsTo(fan.user.email)).toEqual([
      "Your receipt from Twinline",
      "Your Stripe Club subscription renewed: receipt",
      "Your payment of $8.00 did not go through",
      "Your Stripe Club subscription is canceled",
    ]);
    const rows = await queuedFor(t, fan.user.id);
    expect(rows.map((row) => row.status)).toEqual(["sent", "sent", "sent", "sent"]);
  });

  it("a delayed payment that fails: one notice, however the two events come", async () => {
    const pack = await createPackage(t, admin, { name: "Slow Pack", credits: 50, price: 5 });
    const fan = await signUp(t);
    const sessionId = await checkout(fan.token, "/api/payments/create-checkout-session", {
      packageId: pack._id,
      consentVersion: CONSENT_VERSIONS.credits,
    });
    const { session } = await fake.failDelayedPayment(sessionId);
    await deliverTwice(fake.event("checkout.session.async_payment_failed", session));
    expect(subjectsTo(fan.user.email)).toEqual(["Your payment of $5.00 did not go through"]);
  });
});
