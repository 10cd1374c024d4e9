import { mySubscriptionResponseSchema, SANDBOX_CARDS } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createPackage, createPlan, sandboxBuy } from "../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { outboxOf, queuedFor, settleMail } from "../../../test/fan-mail.ts";
import { createManualClock } from "../../../test/manual-clock.ts";

const DAY = 86_400_000;

/** Issue 26 item 4 on the sandbox: every mail once, whatever is replayed or swept again. */
describe("fan e-mail through the outbox (sandbox payments)", () => {
  const clock = createManualClock();
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({
      billingClock: clock,
      billingSweeps: false,
      env: { PUBLIC_URL: "https://twinline.example" },
    });
    admin = (await adminSession(t)).token;
    await t.app.settings.update({ siteName: "Nova Fans", lightThemeLogo: "/uploads/logo.png" });
  });
  afterAll(async () => {
    await t?.close();
  });

  const mine = async (token: string) =>
    mySubscriptionResponseSchema.parse(
      (await call(t, "GET", "/api/subscriptions/my-subscription", { token })).json(),
    ).data;
  /** Sweeps of every kind again: none may send anything twice. */
  const sweepEverything = async () => {
    await t.app.billing.sweep.sweep();
    await t.app.billing.planChanges.sweep();
    await t.app.billing.renewals.sweep();
    await t.app.fanMail.sweep();
    await settleMail(t);
  };

  it("a package purchase gets one receipt (HTML and text, name and logo), replays or not", async () => {
    const pack = await createPackage(t, admin, { name: "Gold <Pack>", credits: 300, price: 24.5 });
    const fan = await signUp(t, { name: "Ada" });
    const { sessionId, paid } = await sandboxBuy(t, fan.token, { packageId: pack._id });
    expect(paid.statusCode, paid.body).toBe(200);
    await settleMail(t);

    // The same session told again by a new event, and an event id seen before: nothing more.
    const again = { id: `evt_again_${sessionId}`, type: "checkout.session.completed" };
    for (const id of [again.id, again.id]) {
      await t.app.billing.fulfilment.handle(
        { id, type: again.type, data: { object: { id: sessionId } } } as never,
        t.app.billing.sandbox,
      );
    }
    await sweepEverything();

    const mails = await outboxOf(t, fan.user.email);
    expect(mails).toHaveLength(1);
    const [receipt] = mails;
    expect(receipt?.subject).toBe("Your receipt from Nova Fans");
    expect(receipt?.text).toContain("Item: Gold <Pack>");
    expect(receipt?.text).toContain("Amount: $24.50");
    expect(receipt?.text).toContain("Currency: USD");
    expect(receipt?.text).toContain("Credits added: 300");
    expect(receipt?.text).toMatch(/Date: \d{1,2} [A-Z][a-z]+ \d{4}/);
    expect(receipt?.text).toMatch(/Transaction ID: \S+/);
    expect(receipt?.text).toContain("nothing renews");
    // Escaped in the HTML; the logo is an absolute URL under PUBLIC_URL.
    expect(receipt?.html).toContain("Gold &lt;Pack&gt;");
    expect(receipt?.html).not.toContain("Gold <Pack>");
    expect(receipt?.html).toContain('src="https://twinline.example/uploads/logo.png"');
    // A receipt is transactional: no unsubscribe link.
    expect(receipt?.text).not.toContain("/api/mail/unsubscribe");
    const queued = await queuedFor(t, fan.user.id);
    expect(queued.map((row) => [row.kind, row.status])).toEqual([["receipt", "sent"]]);
  });

  it("subscribe, cancel, resume, renew, fail: each mail once", async () => {
    const plan = await createPlan(t, admin, { name: "Fan Club", price: 9.99, credits: 50 });
    const fan = await signUp(t, { name: "Grace" });
    await sandboxBuy(t, fan.token, { planId: plan._id });
    await settleMail(t);
    expect(
      (await call(t, "POST", "/api/subscriptions/cancel", { token: fan.token })).statusCode,
    ).toBe(200);
    await settleMail(t);
    // Choosing the same plan again takes the cancellation back.
    const resumed = await call(t, "POST", "/api/subscriptions/upgrade", {
      token: fan.token,
      body: { planId: plan._id },
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    await settleMail(t);
    await sweepEverything();

    let mails = await outboxOf(t, fan.user.email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      "Your receipt from Nova Fans",
      "Your Fan Club subscription is canceled",
      "Your Fan Club subscription is active again",
    ]);
    expect(mails[0]?.text).toContain("You can cancel at any time");
    expect(mails[1]?.text).toMatch(/You keep it until \d{1,2} [A-Z][a-z]+ \d{4}/);

    // The period ends: the renewal's receipt, once however often the sweeps run.
    const end = Date.parse((await mine(fan.token)).endDate ?? "");
    await clock.advance(end - clock.now() + 1000);
    expect((await t.app.billing.renewals.sweep()).renewed).toBe(1);
    await settleMail(t);
    await sweepEverything();
    mails = await outboxOf(t, fan.user.email);
    expect(mails.map((mail) => mail.subject).slice(3)).toEqual([
      "Your Fan Club subscription renewed: receipt",
    ]);
    expect(mails[3]?.text).toContain("Amount: $9.99");

    // The next renewal is declined: one notice per failed attempt, saying what to do.
    const subscriptionId = (await mine(fan.token)).stripeSubscriptionId ?? "";
    await t.app.billing.sandbox.updateCard(subscriptionId, SANDBOX_CARDS.declined);
    const next = Date.parse((await mine(fan.token)).endDate ?? "");
    await clock.advance(next - clock.now() + 1000);
    expect((await t.app.billing.renewals.sweep()).past_due).toBe(1);
    await settleMail(t);
    await sweepEverything();
    mails = await outboxOf(t, fan.user.email);
    expect(mails.map((mail) => mail.subject).slice(4)).toEqual([
      "Your payment of $9.99 did not go through",
    ]);
    expect(mails[4]?.text).toContain("What to do");
    await clock.advance(DAY);
    expect((await t.app.billing.renewals.sweep()).unpaid).toBe(1);
    await sweepEverything();
    mails = await outboxOf(t, fan.user.email);
    expect(mails.map((mail) => mail.subject).slice(5)).toEqual([
      "Your payment of $9.99 did not go through",
    ]);
    const kinds = (await queuedFor(t, fan.user.id)).map((row) => row.kind);
    expect(new Set(kinds).size).toBeGreaterThan(1);
    expect((await queuedFor(t, fan.user.id)).every((row) => row.status === "sent")).toBe(true);
  });

  it("a plan change that charges gets its receipt; one that credits sends none", async () => {
    const low = await createPlan(t, admin, { name: "Low", price: 5, credits: 10 });
    const high = await createPlan(t, admin, { name: "High", price: 20, credits: 40 });
    const fan = await signUp(t);
    await sandboxBuy(t, fan.token, { planId: low._id });
    for (const planId of [high._id, low._id]) {
      const changed = await call(t, "POST", "/api/subscriptions/upgrade", {
        token: fan.token,
        body: { planId },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      await settleMail(t);
    }
    await sweepEverything();
    const mails = await outboxOf(t, fan.user.email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      "Your receipt from Nova Fans",
      "Your receipt from Nova Fans",
    ]);
    expect(mails[1]?.text).toContain("Item: High (plan change: charged at once)");
  });
});
