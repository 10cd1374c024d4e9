import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage, sandboxBuy } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { createManualClock, type ManualClock } from "../../../../test/manual-clock.ts";
import { paymentRefunds, payments } from "../../../db/schema/index.ts";
import { REFUNDS_SWEEP_EVERY_MS } from "./refunds-service.ts";

describe("the refunds sweep runs on the billing clock", () => {
  let t: TestApp;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = createManualClock();
    t = await createTestApp({ billingClock: clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("settles a claim left pending once it is two minutes old on that clock, and only then", async () => {
    const admin = await adminSession(t);
    const pack = await createPackage(t, admin.token, { name: "Pack 300", credits: 300, price: 6 });
    const fan = await signUp(t);
    const { paid } = await sandboxBuy(t, fan.token, { packageId: pack._id });
    expect(paid.statusCode, paid.body).toBe(200);
    const db = t.app.database.db;
    const [payment] = await db.select().from(payments).where(eq(payments.userId, fan.user.id));
    if (!payment) throw new Error("no payment row");
    // The request died right after claiming: a pending claim, made now.
    const [claim] = await db
      .insert(paymentRefunds)
      .values({
        paymentId: payment.id,
        userId: fan.user.id,
        kind: "admin",
        provider: "sandbox",
        amountMinor: 600,
        currency: "usd",
        reason: "Crashed half-way",
        sourceKey: `admin:${randomUUID()}`,
        createdAt: new Date(clock.now()),
      })
      .returning();
    if (!claim) throw new Error("no claim");
    const statusOf = async () =>
      (await db.select().from(paymentRefunds).where(eq(paymentRefunds.id, claim.id)))[0]?.status;

    // One pass a minute later: the claim may still be in its own request's hands.
    await clock.advance(REFUNDS_SWEEP_EVERY_MS);
    expect(await statusOf()).toBe("pending");
    expect(await balanceOf(t, fan.token)).toBe(400);

    // Three minutes on the billing clock (no wall time passed): the timer's pass settles it.
    await clock.advance(2 * REFUNDS_SWEEP_EVERY_MS);
    expect(await statusOf()).toBe("succeeded");
    expect(await balanceOf(t, fan.token)).toBe(100);
    const [row] = await db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row).toMatchObject({ status: "refunded", refundedMinor: 600 });
  });
});
