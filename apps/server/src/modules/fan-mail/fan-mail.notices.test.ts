import { mySubscriptionResponseSchema } from "@twinline/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createPackage, createPlan, sandboxBuy } from "../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { outboxOf, queuedFor, settleMail } from "../../../test/fan-mail.ts";
import { createManualClock } from "../../../test/manual-clock.ts";
import { fanEmails } from "../../db/schema/index.ts";
import { applyCreditMovement } from "../credits/ledger.ts";
import { MAX_SEND_ATTEMPTS } from "./sender.ts";

const DAY = 86_400_000;

/** Reminders and price changes on the billing clock, low balance, unsubscribe, retries. */
describe("fan notices on a moved clock", () => {
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
  });
  afterAll(async () => {
    await t?.close();
  });

  const mine = async (token: string) =>
    mySubscriptionResponseSchema.parse(
      (await call(t, "GET", "/api/subscriptions/my-subscription", { token })).json(),
    ).data;
  const subjects = async (email: string) => (await outboxOf(t, email)).map((m) => m.subject);

  it("a yearly plan: the reminder 7 days before it renews, once, at the price the fan pays", async () => {
    const yearly = await createPlan(t, admin, { name: "Yearly", price: 99, interval: "year" });
    const monthly = await createPlan(t, admin, { name: "Monthly", price: 9 });
    const fan = await signUp(t);
    const other = await signUp(t);
    await sandboxBuy(t, fan.token, { planId: yearly._id });
    await sandboxBuy(t, other.token, { planId: monthly._id });
    await settleMail(t);
    const renewsAt = Date.parse((await mine(fan.token)).endDate ?? "");

    // The operator raises the price: existing subscribers keep theirs (decision 0067).
    const raised = await call(t, "PUT", `/api/subscriptions/${yearly._id}`, {
      token: admin,
      body: { name: "Yearly", price: 129 },
    });
    expect(raised.statusCode, raised.body).toBe(200);

    await clock.advance(renewsAt - 8 * DAY - clock.now());
    await t.app.fanMail.sweep();
    expect(await subjects(fan.user.email)).toEqual(["Your receipt from Twinline"]);

    await clock.advance(2 * DAY);
    await t.app.fanMail.sweep();
    await t.app.fanMail.sweep();
    const mails = await outboxOf(t, fan.user.email);
    expect(mails.map((m) => m.subject).slice(1)).toEqual([
      expect.stringMatching(/^Your Yearly plan renews on \d{1,2} [A-Z][a-z]+ \d{4}$/),
    ]);
    expect(mails[1]?.text).toContain("Amount: $99.00");
    expect(mails[1]?.text).toContain("Don't want it to renew?");
    // No reminder for a monthly plan.
    expect(await subjects(other.user.email)).toEqual(["Your receipt from Twinline"]);

    // The renewal charges the old price, and its receipt says so.
    await clock.advance(renewsAt - clock.now() + 1000);
    expect((await t.app.billing.renewals.sweep()).renewed).toBeGreaterThanOrEqual(1);
    await settleMail(t);
    const renewed = (await outboxOf(t, fan.user.email)).at(-1);
    expect(renewed?.subject).toBe("Your Yearly subscription renewed: receipt");
    expect(renewed?.text).toContain("Amount: $99.00");
  });

  it("low balance: when credits fall below one call minute, at most once a week; unsubscribe stops it only", async () => {
    const fan = await signUp(t);
    const userId = fan.user.id;
    const move = (amount: number, key: string) =>
      applyCreditMovement(t.app.database.db, {
        userId,
        kind: amount < 0 ? "call_minute" : "admin_adjustment",
        amount,
        sourceKey: `test:${userId}:${key}`,
      });
    await move(-90, "a"); // 100 -> 10: still two minutes (5 a minute)
    await move(-6, "b"); // 10 -> 4: below one minute
    await move(10, "c");
    await move(-10, "d"); // below again in the same week: nothing more
    await settleMail(t);
    let mails = await outboxOf(t, fan.user.email);
    expect(mails.map((m) => m.subject)).toEqual(["Your credits are running low"]);
    expect(mails[0]?.text).toContain("You have 4 credits left");
    const link = /https:\/\/twinline\.example(\/api\/mail\/unsubscribe\?token=\S+)/.exec(
      mails[0]?.text ?? "",
    )?.[1];
    expect(link).toBeDefined();
    expect(mails[0]?.html).toContain("/api/mail/unsubscribe?token=");

    // A week later it may come again.
    await t.app.database.db
      .update(fanEmails)
      .set({ createdAt: sql`${fanEmails.createdAt} - interval '8 days'` })
      .where(eq(fanEmails.userId, userId));
    await move(10, "e");
    await move(-10, "f");
    await settleMail(t);
    expect((await outboxOf(t, fan.user.email)).map((m) => m.subject)).toEqual([
      "Your credits are running low",
      "Your credits are running low",
    ]);

    // The link: GET shows a button (a scanner opening it changes nothing), POST unsubscribes.
    const page = await t.app.inject({ method: "GET", url: link ?? "" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    const done = await t.app.inject({
      method: "POST",
      url: link ?? "",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain("You are unsubscribed");
    const forged = await t.app.inject({
      method: "POST",
      url: `/api/mail/unsubscribe?token=${userId}.AAAA`,
    });
    expect(forged.statusCode).toBe(400);

    // Unsubscribed: the next low-balance notice is skipped; a receipt still comes.
    await t.app.database.db
      .update(fanEmails)
      .set({ createdAt: sql`${fanEmails.createdAt} - interval '8 days'` })
      .where(eq(fanEmails.userId, userId));
    await move(10, "g");
    await move(-10, "h");
    const pack = await createPackage(t, admin, { name: "Refill", credits: 10, price: 1 });
    await sandboxBuy(t, fan.token, { packageId: pack._id });
    await settleMail(t);
    mails = await outboxOf(t, fan.user.email);
    expect(mails.map((m) => m.subject).slice(2)).toEqual(["Your receipt from Twinline"]);
    const rows = await queuedFor(t, userId);
    expect(rows.filter((row) => row.kind === "low_balance").map((row) => row.status)).toEqual([
      "sent",
      "sent",
      "skipped",
    ]);
  });

  it("a mail the provider refuses is tried again later, and given up after the last attempt", async () => {
    const fan = await signUp(t);
    const pack = await createPackage(t, admin, { name: "Retry Pack", credits: 10, price: 2 });
    const send = t.app.mail.send;
    let refusals = 1;
    t.app.mail.send = async (message) => {
      if (message.to === fan.user.email && refusals-- > 0) throw new Error("421 try later");
      return send(message);
    };
    try {
      await sandboxBuy(t, fan.token, { packageId: pack._id });
      await settleMail(t);
      let [row] = await queuedFor(t, fan.user.id);
      expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "421 try later" });
      expect(await outboxOf(t, fan.user.email)).toHaveLength(0);
      // Not before its time; then sent once.
      await t.app.fanMail.sendDue();
      expect(await outboxOf(t, fan.user.email)).toHaveLength(0);
      await clock.advance(61_000);
      await t.app.fanMail.sweep();
      await t.app.fanMail.sweep();
      [row] = await queuedFor(t, fan.user.id);
      expect(row).toMatchObject({ status: "sent", attempts: 2 });
      expect(await outboxOf(t, fan.user.email)).toHaveLength(1);

      // A mail that always fails stops after MAX_SEND_ATTEMPTS.
      const hopeless = await signUp(t);
      refusals = 0;
      t.app.mail.send = async (message) => {
        if (message.to === hopeless.user.email) throw new Error("550 no such mailbox");
        return send(message);
      };
      await sandboxBuy(t, hopeless.token, { packageId: pack._id });
      for (let i = 0; i < MAX_SEND_ATTEMPTS + 2; i++) {
        await settleMail(t);
        await clock.advance(7 * 60 * 60_000);
      }
      const [given] = await queuedFor(t, hopeless.user.id);
      expect(given).toMatchObject({ status: "failed", attempts: MAX_SEND_ATTEMPTS });
    } finally {
      t.app.mail.send = send;
    }
  });
});
