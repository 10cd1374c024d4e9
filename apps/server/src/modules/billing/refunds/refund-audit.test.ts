import { CONSENT_VERSIONS } from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage, sandboxBuy } from "../../../../test/billing.ts";
import type { TestApp } from "../../../../test/create-test-app.ts";
import { createTestApp } from "../../../../test/create-test-app.ts";
import { createManualClock, type ManualClock } from "../../../../test/manual-clock.ts";
import { type StripeSuite, useStripeSuite } from "../../../../test/stripe-app.ts";
import { deliver } from "../../../../test/stripe-webhooks.ts";
import { adminAuditLog, creditLedger, paymentRefunds, payments } from "../../../db/schema/index.ts";
import { REFUNDS_SWEEP_EVERY_MS } from "./refunds-service.ts";

/**
 * Every change of money writes its audit entry in the same transaction (issue 24, item 1): a
 * refund left half-way by a crash and finished by the sweep (or by Stripe's webhook) has exactly
 * one entry, and an entry that cannot be written takes the change back with it.
 */

/** Makes every audit write fail, as a crash between the change and its entry would. */
const failAuditWrites = async (t: TestApp) => {
  const db = t.app.database.db;
  await db.execute(sql`create or replace function audit_crash() returns trigger language plpgsql as $$
    begin raise exception 'simulated crash before commit'; end $$`);
  await db.execute(sql`create trigger audit_crash before insert on admin_audit_log
    for each row execute function audit_crash()`);
};
const restoreAuditWrites = async (t: TestApp) => {
  await t.app.database.db.execute(sql`drop trigger audit_crash on admin_audit_log`);
};

const auditRowsOf = (t: TestApp, paymentId: string) =>
  t.app.database.db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.action, "payment.refund"), eq(adminAuditLog.targetId, paymentId)));

const paymentRow = async (t: TestApp, paymentId: string) =>
  (await t.app.database.db.select().from(payments).where(eq(payments.id, paymentId)))[0];

describe("refund audit entries (sandbox)", () => {
  let t: TestApp;
  let clock: ManualClock;
  let admin: { token: string; id: string; email: string };

  beforeAll(async () => {
    clock = createManualClock();
    t = await createTestApp({ billingClock: clock });
    admin = await adminSession(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const buyer = async () => {
    const pack = await createPackage(t, admin.token, {
      name: "Audit 500",
      credits: 500,
      price: 10,
    });
    const fan = await signUp(t);
    const { paid } = await sandboxBuy(t, fan.token, { packageId: pack._id });
    expect(paid.statusCode, paid.body).toBe(200);
    const [payment] = await t.app.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, fan.user.id));
    if (!payment) throw new Error("no payment row");
    return { fan, payment };
  };

  it("refunds whose requests crashed after the provider refunded are finished by the sweep, each with exactly one audit entry", async () => {
    const bought = [await buyer(), await buyer(), await buyer()];
    const amounts = [undefined, 3.33, undefined];
    await failAuditWrites(t);
    try {
      for (const [index, { payment }] of bought.entries()) {
        const amount = amounts[index];
        const response = await call(t, "POST", `/api/admin/payments/${payment.id}/refund`, {
          token: admin.token,
          body: { reason: `Crash ${index}`, ...(amount === undefined ? {} : { amount }) },
        });
        expect(response.statusCode).toBe(500);
        expect(response.body).not.toContain("simulated crash");
      }
      // The change failed with its entry: nothing taken, nothing counted, the claim pending.
      for (const { fan, payment } of bought) {
        expect(await balanceOf(t, fan.token)).toBe(600);
        expect(await paymentRow(t, payment.id)).toMatchObject({
          status: "success",
          refundedMinor: 0,
        });
        expect(await auditRowsOf(t, payment.id)).toHaveLength(0);
        const claims = await t.app.database.db
          .select()
          .from(paymentRefunds)
          .where(eq(paymentRefunds.paymentId, payment.id));
        expect(claims.map((claim) => claim.status)).toEqual(["pending"]);
      }
    } finally {
      await restoreAuditWrites(t);
    }

    await clock.advance(3 * REFUNDS_SWEEP_EVERY_MS);
    await clock.advance(REFUNDS_SWEEP_EVERY_MS);

    const expected = [
      { balance: 100, refundedMinor: 1000 },
      { balance: 434, refundedMinor: 333 },
      { balance: 100, refundedMinor: 1000 },
    ];
    for (const [index, { fan, payment }] of bought.entries()) {
      expect(await balanceOf(t, fan.token)).toBe(expected[index]?.balance);
      expect((await paymentRow(t, payment.id))?.refundedMinor).toBe(expected[index]?.refundedMinor);
      const rows = await auditRowsOf(t, payment.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        adminId: admin.id,
        adminEmail: admin.email,
        targetType: "payment",
        method: "POST",
        path: `/api/admin/payments/${payment.id}/refund`,
        before: { status: "success", refundedAmount: 0, reason: `Crash ${index}` },
        after: { payment: { refundedAmount: (expected[index]?.refundedMinor ?? 0) / 100 } },
      });
    }
  });

  it("a credit adjustment whose audit entry cannot be written changes nothing; one written once per request", async () => {
    const fan = await signUp(t);
    const adjust = (requestId: string) =>
      call(t, "POST", `/api/admin/users/${fan.user.id}/credits`, {
        token: admin.token,
        body: { delta: 250, reason: "Goodwill", requestId },
      });
    const requestId = crypto.randomUUID();
    await failAuditWrites(t);
    try {
      const failed = await adjust(requestId);
      expect(failed.statusCode).toBe(500);
    } finally {
      await restoreAuditWrites(t);
    }
    expect(await balanceOf(t, fan.token)).toBe(100);
    const ledger = () =>
      t.app.database.db
        .select()
        .from(creditLedger)
        .where(
          and(eq(creditLedger.userId, fan.user.id), eq(creditLedger.kind, "admin_adjustment")),
        );
    expect(await ledger()).toHaveLength(0);

    // The same dialog submitted again, twice: applied once, one entry.
    expect((await adjust(requestId)).statusCode).toBe(200);
    expect((await adjust(requestId)).statusCode).toBe(200);
    expect(await balanceOf(t, fan.token)).toBe(350);
    expect(await ledger()).toHaveLength(1);
    const entries = await t.app.database.db
      .select()
      .from(adminAuditLog)
      .where(
        and(
          eq(adminAuditLog.action, "user.credits_adjust"),
          eq(adminAuditLog.targetId, fan.user.id),
        ),
      );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      adminId: admin.id,
      before: { credits: 100, delta: 250, reason: "Goodwill" },
      after: { balance: 350, delta: 250 },
    });
  });
});

describe("refund audit entries (Stripe)", () => {
  let t: TestApp;
  let fake: FakeStripe;
  let admin: StripeSuite["adminAccount"];
  // Made in the hook: the clock starts at the app's start, as the fake Stripe's times do.
  let clock: ManualClock;
  useStripeSuite(
    (suite) => {
      ({ t, fake, adminAccount: admin } = suite);
    },
    () => {
      // Behind the wall clock, as on a loaded machine whose earlier tests took minutes: the
      // sweep reads a claim's age on the clock that wrote it (the suite failed on this).
      clock = createManualClock(Date.now() - 180_000);
      return { billingClock: clock };
    },
  );

  it("refunds refunded at Stripe but not settled here are finished by the sweep, each with one audit entry; the webhook adds none", async () => {
    const pack = await createPackage(t, admin.token, { name: "Audit S", credits: 500, price: 10 });
    const bought = [];
    for (let index = 0; index < 2; index++) {
      const fan = await signUp(t);
      const checkout = await call(t, "POST", "/api/payments/create-checkout-session", {
        token: fan.token,
        body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
      });
      const done = await fake.completeCheckout(checkout.json().sessionId);
      expect(
        (await deliver(t, fake.event("checkout.session.completed", done.session))).statusCode,
      ).toBe(200);
      const [payment] = await t.app.database.db
        .select()
        .from(payments)
        .where(eq(payments.userId, fan.user.id));
      if (!payment?.stripePaymentId) throw new Error("no payment row");
      bought.push({ fan, payment, intent: payment.stripePaymentId });
    }

    await failAuditWrites(t);
    try {
      for (const { payment } of bought) {
        const response = await call(t, "POST", `/api/admin/payments/${payment.id}/refund`, {
          token: admin.token,
          body: { reason: "Crash at Stripe" },
        });
        expect(response.statusCode).toBe(500);
      }
    } finally {
      await restoreAuditWrites(t);
    }
    for (const { fan, payment, intent } of bought) {
      expect([...fake.refunds.values()].filter((r) => r.payment_intent === intent)).toHaveLength(1);
      expect(await balanceOf(t, fan.token)).toBe(600);
      expect(await auditRowsOf(t, payment.id)).toHaveLength(0);
    }

    await clock.advance(3 * REFUNDS_SWEEP_EVERY_MS);
    for (const { fan, payment, intent } of bought) {
      expect(await balanceOf(t, fan.token)).toBe(100);
      expect(await paymentRow(t, payment.id)).toMatchObject({ status: "refunded" });
      // Stripe's charge.refunded arrives after the sweep: settled already, no second entry.
      const told = await deliver(t, fake.event("charge.refunded", await fake.chargeOf(intent)));
      expect(told.statusCode, told.body).toBe(200);
      const rows = await auditRowsOf(t, payment.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ adminId: admin.id, adminEmail: admin.email });
      expect([...fake.refunds.values()].filter((r) => r.payment_intent === intent)).toHaveLength(1);
    }
  });
});
