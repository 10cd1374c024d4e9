import {
  adminPaymentDetailsResponseSchema,
  WITHDRAWAL_MESSAGES,
  withdrawalQuoteResponseSchema,
  withdrawResponseSchema,
} from "@twinline/contracts";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage, createPlan, sandboxBuy } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { createManualClock, type ManualClock } from "../../../../test/manual-clock.ts";
import {
  adminAuditLog,
  creditLedger,
  mailOutbox,
  paymentRefunds,
  payments,
} from "../../../db/schema/index.ts";

const DAY = 24 * 60 * 60 * 1000;

/** Withdrawal from a purchase within 14 days, on the offline sandbox (issue 26, item 5). */
describe("withdrawal from a purchase (sandbox)", () => {
  let t: TestApp;
  let clock: ManualClock;
  let admin: { token: string; id: string };

  beforeAll(async () => {
    // From now: a package's payment is dated by the database, a plan's by the sandbox's clock.
    clock = createManualClock();
    t = await createTestApp({ billingClock: clock, billingSweeps: false });
    admin = await adminSession(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.app.database.db;

  /** A fan who bought `credits` credits for `price`, then spent down to `keep` credits. */
  const buyer = async (credits: number, price: number, keep?: number) => {
    const pack = await createPackage(t, admin.token, { name: `W ${credits}`, credits, price });
    const fan = await signUp(t);
    const { paid } = await sandboxBuy(t, fan.token, { packageId: pack._id });
    expect(paid.statusCode, paid.body).toBe(200);
    const [payment] = await db().select().from(payments).where(eq(payments.userId, fan.user.id));
    if (!payment) throw new Error("no payment row");
    if (keep !== undefined) {
      const spend = (await balanceOf(t, fan.token)) - keep;
      const spent = await call(t, "POST", `/api/admin/users/${fan.user.id}/credits`, {
        token: admin.token,
        body: { delta: -spend, reason: "Spent in calls" },
      });
      expect(spent.statusCode, spent.body).toBe(200);
    }
    return { fan, payment };
  };

  const quote = (token: string, paymentId: string) =>
    call(t, "GET", `/api/payments/${paymentId}/withdrawal`, { token });
  const withdraw = (token: string, paymentId: string, body: object = { confirm: true }) =>
    call(t, "POST", `/api/payments/${paymentId}/withdrawal`, { token, body });

  it("gives back the unused credits' share (rounded up), takes them back, e-mails the date and time, audits both", async () => {
    // 100 credits for $9.99; 30 used: 70 unused, 9.99 x 70 / 100 = 6.993 -> $7.00.
    const { fan, payment } = await buyer(100, 9.99, 70);
    const asked = await quote(fan.token, payment.id);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(withdrawalQuoteResponseSchema.parse(asked.json()).data).toMatchObject({
      kind: "credits",
      refundAmount: 7,
      creditsTakenBack: 70,
      creditsUsed: 30,
      endsPlan: false,
      deadline: new Date(payment.transactionDate.getTime() + 14 * DAY).toISOString(),
    });

    const missingConfirm = await withdraw(fan.token, payment.id, {});
    expect(missingConfirm.statusCode).toBe(400);
    expect(messageOf(missingConfirm)).toBe(`confirm: ${WITHDRAWAL_MESSAGES.confirmRequired}`);

    const done = await withdraw(fan.token, payment.id);
    expect(done.statusCode, done.body).toBe(200);
    const { data } = withdrawResponseSchema.parse(done.json());
    expect(data.withdrawal).toMatchObject({
      status: "succeeded",
      refundAmount: 7,
      creditsTakenBack: 70,
      withdrawnAt: new Date(clock.now()).toISOString(),
    });
    expect(data.balance).toBe(0);
    expect(await balanceOf(t, fan.token)).toBe(0);

    const [row] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(row).toMatchObject({ status: "success", refundedMinor: 700 });
    const mine = await call(t, "GET", "/api/payments/history", { token: fan.token });
    expect(mine.json().data[0]).toMatchObject({
      refundedAmount: 7,
      withdrawnAt: expect.any(String),
    });

    // One credit movement of -70, one refund row, settled with exactly those credits.
    const movements = await db()
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, fan.user.id), eq(creditLedger.kind, "refund")));
    expect(movements.map((m) => m.amount)).toEqual([-70]);
    const refunds = await db()
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, payment.id));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      kind: "withdrawal",
      status: "succeeded",
      amountMinor: 700,
      creditsTaken: 70,
      creditsShortfall: 0,
    });

    const audit = await db()
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, payment.id));
    expect(audit.map((a) => a.action).sort()).toEqual(["payment.refund", "payment.withdrawal"]);
    expect(audit.every((a) => a.adminId === null && a.adminEmail === fan.user.email)).toBe(true);

    // Through the fan-mail queue, once: its date and time, the refund and the credits.
    await t.app.fanMail.idle();
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.to, fan.user.email));
    const withdrawal = mails.filter((mail) => mail.subject.startsWith("Your withdrawal from"));
    expect(withdrawal).toHaveLength(1);
    expect(withdrawal[0]?.text).toMatch(
      /Date and time: \d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} UTC/,
    );
    expect(withdrawal[0]?.text).toContain("Refund: $7.00");
    expect(withdrawal[0]?.text).toContain("Credits removed: 70");

    // The admin's details show the withdrawal beside the consent.
    const details = adminPaymentDetailsResponseSchema.parse(
      (await call(t, "GET", `/api/admin/payments/${payment.id}`, { token: admin.token })).json(),
    ).data;
    expect(details.payment.withdrawnAt).toBe(data.withdrawal.withdrawnAt);
    expect(details.refunds).toMatchObject([{ kind: "withdrawal", amount: 7, creditsTaken: 70 }]);
    expect(details.consent?.kind).toBe("credits");
  });

  it("rounds the half cent up, for the fan: 1 of 2 credits of $9.99 gives back $5.00", async () => {
    const { fan, payment } = await buyer(2, 9.99, 1);
    const done = await withdraw(fan.token, payment.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.withdrawal).toMatchObject({ refundAmount: 5, creditsTakenBack: 1 });
  });

  it("gives back everything when nothing was used, in amounts that do not divide evenly", async () => {
    // 3 credits for $10.00: every credit unused -> the whole $10.00, never 3 x $3.33.
    const { fan, payment } = await buyer(3, 10);
    const before = await balanceOf(t, fan.token);
    const done = await withdraw(fan.token, payment.id);
    expect(done.json().data.withdrawal).toMatchObject({ refundAmount: 10, creditsTakenBack: 3 });
    expect(await balanceOf(t, fan.token)).toBe(before - 3);
    const [row] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(row).toMatchObject({ status: "refunded", refundedMinor: 1000 });
  });

  it("refuses when every credit is used, and once withdrawn", async () => {
    const { fan, payment } = await buyer(50, 5, 0);
    const nothing = await withdraw(fan.token, payment.id);
    expect(nothing.statusCode).toBe(409);
    expect(messageOf(nothing)).toBe(WITHDRAWAL_MESSAGES.nothingLeft);
    expect(
      await db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, payment.id)),
    ).toEqual([]);
  });

  it("withdraws once: a repeat and 6 requests at once make one refund and one e-mail", async () => {
    const { fan, payment } = await buyer(40, 4);
    const before = await balanceOf(t, fan.token);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => withdraw(fan.token, payment.id)),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const again = await withdraw(fan.token, payment.id);
    expect(again.statusCode).toBe(200);
    expect(new Set([...answers, again].map((a) => a.json().data.withdrawal._id)).size).toBe(1);
    expect(await balanceOf(t, fan.token)).toBe(before - 40);
    const refunds = await db()
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, payment.id));
    expect(refunds).toHaveLength(1);
    await t.app.fanMail.idle();
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.to, fan.user.email));
    expect(mails.filter((mail) => mail.subject.startsWith("Your withdrawal from"))).toHaveLength(1);
    // The quote now says it is done.
    const asked = await quote(fan.token, payment.id);
    expect(asked.statusCode).toBe(409);
    expect(messageOf(asked)).toBe(WITHDRAWAL_MESSAGES.alreadyWithdrawn);
  });

  it("is the fan's own: another fan's purchase is not found; a session is needed", async () => {
    const { payment } = await buyer(10, 1);
    const other = await signUp(t);
    const foreign = await withdraw(other.token, payment.id);
    expect(foreign.statusCode).toBe(404);
    expect(messageOf(foreign)).toBe(WITHDRAWAL_MESSAGES.paymentNotFound);
    const anonymous = await call(t, "POST", `/api/payments/${payment.id}/withdrawal`, {
      body: { confirm: true },
    });
    expect(anonymous.statusCode).toBe(401);
    const badId = await withdraw(other.token, "not-a-uuid");
    expect(badId.statusCode).toBe(400);
  });

  it("takes nothing when its audit entry cannot be written (one transaction)", async () => {
    const { fan, payment } = await buyer(20, 2);
    const before = await balanceOf(t, fan.token);
    await db().execute(sql`create or replace function audit_crash() returns trigger language plpgsql as $$
      begin raise exception 'simulated crash before commit'; end $$`);
    await db().execute(sql`create trigger audit_crash before insert on admin_audit_log
      for each row execute function audit_crash()`);
    try {
      const crashed = await withdraw(fan.token, payment.id);
      expect(crashed.statusCode).toBe(500);
      expect(crashed.body).not.toContain("simulated");
    } finally {
      await db().execute(sql`drop trigger audit_crash on admin_audit_log`);
    }
    expect(await balanceOf(t, fan.token)).toBe(before);
    expect(
      await db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, payment.id)),
    ).toEqual([]);
    const [row] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(row?.metadata.withdrawnAt).toBeUndefined();
    // It can be withdrawn afterwards.
    expect((await withdraw(fan.token, payment.id)).statusCode).toBe(200);
  });

  it("ends a plan now, gives back the unused part of its period, takes its credits back", async () => {
    const plan = await createPlan(t, admin.token, { name: "W plan", price: 10, credits: 50 });
    const fan = await signUp(t);
    const start = await balanceOf(t, fan.token);
    const { paid } = await sandboxBuy(t, fan.token, { planId: plan._id });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balanceOf(t, fan.token)).toBe(start + 50);
    const mine = await call(t, "GET", "/api/subscriptions/my-subscription", { token: fan.token });
    const { startDate, endDate } = mine.json().data as { startDate: string; endDate: string };
    await clock.advance(3 * DAY);
    const total = Date.parse(endDate) - Date.parse(startDate);
    const left = Date.parse(endDate) - clock.now();
    const expected = Math.ceil((1000 * left) / total) / 100;

    const [payment] = await db().select().from(payments).where(eq(payments.userId, fan.user.id));
    if (!payment) throw new Error("no plan payment");
    const asked = withdrawalQuoteResponseSchema.parse((await quote(fan.token, payment.id)).json());
    expect(asked.data).toMatchObject({
      kind: "subscription",
      refundAmount: expected,
      creditsTakenBack: 50,
      endsPlan: true,
    });
    const done = await withdraw(fan.token, payment.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.withdrawal).toMatchObject({
      refundAmount: expected,
      creditsTakenBack: 50,
      endsPlan: true,
    });
    expect(await balanceOf(t, fan.token)).toBe(start);
    const after = await call(t, "GET", "/api/subscriptions/my-subscription", { token: fan.token });
    expect(after.json().data.status).toBe("inactive");
    const again = await withdraw(fan.token, payment.id);
    expect(again.statusCode).toBe(200);
    expect(
      await db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, payment.id)),
    ).toHaveLength(1);
    await t.app.fanMail.idle();
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.to, fan.user.email));
    const withdrawal = mails.filter((mail) => mail.subject.startsWith("Your withdrawal from"));
    expect(withdrawal).toHaveLength(1);
    expect(withdrawal[0]?.text).toContain("Your plan has ended");
  });
  // Last: it moves the clock past every earlier purchase's 14 days.
  it("allows 14 days on the billing clock, not a minute more", async () => {
    const inTime = await buyer(10, 1);
    const late = await buyer(10, 1);
    // A package's payment is dated by the database's clock: the 14 days count from that date.
    const deadline = inTime.payment.transactionDate.getTime() + 14 * DAY;
    await clock.advance(deadline - clock.now() - 60_000);
    const ok = await withdraw(inTime.fan.token, inTime.payment.id);
    expect(ok.statusCode, ok.body).toBe(200);
    await clock.advance(2 * 60_000);
    const refused = await withdraw(late.fan.token, late.payment.id);
    expect(refused.statusCode).toBe(409);
    expect(messageOf(refused)).toBe(WITHDRAWAL_MESSAGES.tooLate);
    expect((await quote(late.fan.token, late.payment.id)).statusCode).toBe(409);
  });
});
