import {
  adminUserDetailResponseSchema,
  adminUsersResponseSchema,
  meResponseSchema,
  mySubscriptionResponseSchema,
  userDashboardMetricsResponseSchema,
} from "@twinline/contracts";
import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import {
  creditLedger,
  type PaymentRow,
  payments,
  subscriptionPlans,
  userSubscriptions,
  users,
} from "../../src/db/schema/index.ts";
import { NEWEST_SUBSCRIPTION_FIRST } from "../../src/modules/users/subscription-state.ts";
import { call } from "../accounts.ts";
import type { TestApp } from "../create-test-app.ts";
import {
  invoicePeriodOf,
  type LifecycleDriver,
  type LifecycleUser,
  type ProviderInvoice,
} from "./drivers.ts";

const meta = (row: PaymentRow) => row.metadata as Record<string, unknown>;

/**
 * What every screen must say of a subscription row, restated from the spec on purpose: an oracle
 * that called the production rule (users/subscription-state.ts) would agree with any bug in it.
 * The provider keeps a plan while it is active, in its free trial or past due (Stripe still
 * retries); a trial not set to cancel shows "trialing"; one set to cancel shows "canceled" until
 * its period ends, then nothing.
 */
function expectedStatus(
  row:
    | Pick<
        typeof userSubscriptions.$inferSelect,
        "status" | "cancelAtPeriodEnd" | "currentPeriodEnd"
      >
    | undefined,
): "active" | "trialing" | "canceled" | "inactive" {
  if (row === undefined) return "inactive";
  if (!["active", "past_due", "trialing"].includes(row.status)) return "inactive";
  if (!row.cancelAtPeriodEnd) return row.status === "trialing" ? "trialing" : "active";
  return row.currentPeriodEnd.getTime() > Date.now() ? "canceled" : "inactive";
}
const CREATE_OR_CYCLE = new Set(["subscription_create", "subscription_cycle"]);

/**
 * What must hold for a user after every step, whatever happened before (issue 16):
 * - the credit balance is the ledger's sum, never below zero;
 * - at most one subscription is in force;
 * - every amount recorded is what the provider charged for what was sold (a period's price
 *   less the account credit used; a proration; a downgrade's credit), with the credits the
 *   rules give; a refund never gives back more than was paid;
 * - every provider invoice is on exactly one row (each declined attempt on one failed row);
 * - the account credit at the provider is the credit recorded less the credit used;
 * - every screen's API shows the state the subscription row means.
 */
export async function checkInvariants(
  t: TestApp,
  driver: LifecycleDriver,
  user: LifecycleUser,
  admin: string,
  step: string,
): Promise<void> {
  const db = t.app.database.db;
  const why = `${driver.kind}, after ${step}`;

  const [account] = await db.select().from(users).where(eq(users.id, user.id));
  const [ledger] = await db
    .select({ sum: sql<number>`coalesce(sum(${creditLedger.amount}), 0)::int` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, user.id));
  expect(account?.credits, why).toBe(Number(ledger?.sum));
  expect(account?.credits ?? -1, why).toBeGreaterThanOrEqual(0);

  const rows = await db
    .select()
    .from(userSubscriptions)
    .where(eq(userSubscriptions.userId, user.id))
    .orderBy(...NEWEST_SUBSCRIPTION_FIRST);
  expect(
    rows.filter((row) => ["active", "past_due", "trialing"].includes(row.status)).length,
    why,
  ).toBeLessThanOrEqual(1);

  const plans = new Map((await db.select().from(subscriptionPlans)).map((p) => [p.id, p]));
  const paid = await db.select().from(payments).where(eq(payments.userId, user.id));
  const invoices = new Map((await driver.invoices(user.id)).map((each) => [each.id, each]));
  let creditRecorded = 0;
  let creditUsed = 0;
  let granted = 0;
  for (const row of paid.filter((each) => each.kind === "subscription")) {
    const invoice = invoices.get(row.invoiceId ?? "");
    expect(invoice, `${why}: the provider's invoice of ${row.sourceKey}`).toBeDefined();
    if (!invoice) continue;
    const plan = plans.get(row.planId ?? "");
    if (row.status === "credited") {
      expect(invoice.total, why).toBeLessThan(0);
      expect(row.amountMinor, why).toBe(invoice.total);
      expect(row.credits, why).toBe(0);
      creditRecorded += row.amountMinor;
    } else if (row.status === "success" || row.status === "refunded") {
      // A refund changes neither what was paid nor what was granted; it is never more than that.
      expect(row.refundedMinor, why).toBeLessThanOrEqual(row.amountMinor);
      expect(row.status === "refunded", why).toBe(
        row.refundedMinor === row.amountMinor && row.amountMinor > 0,
      );
      expect(row.amountMinor, why).toBe(invoice.amount_paid);
      const used = Number(meta(row).creditAppliedMinor ?? 0);
      expect(row.amountMinor + used, why).toBe(invoice.total);
      creditUsed += used;
      granted += row.credits;
      const subscription = rows.find((each) => each.id === row.subscriptionId);
      if (subscription?.trialEnd && meta(row).billingReason === "subscription_create") {
        // A free trial is sold for nothing and grants nothing (decision 0083).
        expect(invoice.total, why).toBe(0);
        expect(row.credits, why).toBe(0);
      } else if (CREATE_OR_CYCLE.has(String(meta(row).billingReason))) {
        // A period is sold at the plan's price, with the plan's credits.
        expect(invoice.total, why).toBe(plan?.priceMinor);
        expect(row.credits, why).toBe(plan?.credits);
      } else {
        expect(invoice.total, why).toBeGreaterThan(0);
        expect(row.credits, why).toBeLessThanOrEqual(plan?.credits ?? 0);
      }
    } else {
      expect(row.status, why).toBe("failed");
      // A declined period: its invoice, for the plan it was made for, at that plan's price.
      expect(row.amountMinor, why).toBe(invoice.total);
      expect(row.amountMinor, why).toBe(plan?.priceMinor);
    }
  }
  for (const invoice of invoices.values()) {
    const onIt = paid.filter((row) => row.invoiceId === invoice.id);
    const settled = onIt.filter((row) => row.status !== "failed");
    const failed = onIt.filter((row) => row.status === "failed");
    expect(settled.length, `${why}: ${invoice.id} (${invoice.billing_reason})`).toBe(
      invoice.status === "paid" ? 1 : 0,
    );
    const declined = invoice.attempt_count - (invoice.status === "paid" ? 1 : 0);
    expect(failed.length, `${why}: declines of ${invoice.id}`).toBe(
      invoice.billing_reason === "subscription_cycle" ? declined : 0,
    );
  }
  expect(await driver.balance(user.id), `${why}: account credit`).toBe(creditRecorded + creditUsed);
  const [grants] = await db
    .select({ sum: sql<number>`coalesce(sum(${creditLedger.amount}), 0)::int` })
    .from(creditLedger)
    .where(
      sql`${creditLedger.userId} = ${user.id} and ${creditLedger.kind} = 'subscription_grant'`,
    );
  expect(Number(grants?.sum), `${why}: plan credits granted`).toBe(granted);
  await checkPeriodCredits(t, user, [...invoices.values()], plans, why);

  await checkScreens(t, user, admin, rows[0], why);
}

/**
 * Within one billing period the plan credits granted never exceed the credits of the highest
 * plan held in it (issue 24: down and up again granted the upgrade's credits each time). The
 * bound is the provider's record alone: a period is the invoices of a subscription that share
 * its end, the plans held are those its invoices were made for (the period's payment and each
 * change, down or up), and what was granted is the ledger's grants for those invoices.
 */
async function checkPeriodCredits(
  t: TestApp,
  user: LifecycleUser,
  invoices: ProviderInvoice[],
  plans: Map<string, { credits: number }>,
  why: string,
) {
  const grants = await t.app.database.db
    .select({ amount: creditLedger.amount, metadata: creditLedger.metadata })
    .from(creditLedger)
    .where(
      sql`${creditLedger.userId} = ${user.id} and ${creditLedger.kind} = 'subscription_grant'`,
    );
  const grantedFor = new Map<string, number>();
  for (const grant of grants) {
    const invoiceId = String((grant.metadata as Record<string, unknown>)?.invoiceId ?? "");
    grantedFor.set(invoiceId, (grantedFor.get(invoiceId) ?? 0) + grant.amount);
  }
  const periods = new Map<string, { highest: number; granted: number }>();
  for (const invoice of invoices) {
    const { subscription, periodEnd, planId } = invoicePeriodOf(invoice);
    const key = `${subscription}:${periodEnd}`;
    const period = periods.get(key) ?? { highest: 0, granted: 0 };
    period.highest = Math.max(period.highest, plans.get(planId ?? "")?.credits ?? 0);
    period.granted += grantedFor.get(invoice.id) ?? 0;
    periods.set(key, period);
  }
  for (const [key, period] of periods) {
    expect(period.granted, `${why}: plan credits granted in period ${key}`).toBeLessThanOrEqual(
      period.highest,
    );
  }
}

/** Every screen's API tells the state of the user's newest subscription row, the same way. */
async function checkScreens(
  t: TestApp,
  user: LifecycleUser,
  admin: string,
  row: typeof userSubscriptions.$inferSelect | undefined,
  why: string,
) {
  const status = expectedStatus(row);
  const planId = status === "inactive" ? undefined : row?.planId;
  const get = async (path: string, token: string, query?: Record<string, string>) => {
    const response = await call(t, "GET", path, { token, ...(query ? { query } : {}) });
    expect(response.statusCode, `${why}: ${path} ${response.body}`).toBe(200);
    return response.json();
  };
  const mine = mySubscriptionResponseSchema.parse(
    await get("/api/subscriptions/my-subscription", user.token),
  ).data;
  const me = meResponseSchema.parse(await get("/api/auth/me", user.token)).data;
  const metrics = userDashboardMetricsResponseSchema.parse(
    await get("/api/users/dashboard-metrics", user.token),
  );
  const detail = adminUserDetailResponseSchema.parse(
    await get(`/api/admin/users/${user.id}`, admin),
  ).data;
  const listed = adminUsersResponseSchema
    .parse(await get("/api/admin/users", admin, { search: user.email }))
    .data.find((each) => each._id === user.id);
  const shown = {
    mySubscription: mine.status,
    me: me.subscription.status,
    dashboard: metrics.data.user.subscription.status,
    adminDetail: detail.subscription?.status,
    adminList: listed?.subscription.status,
  };
  expect(shown, why).toEqual({
    mySubscription: status,
    me: status,
    dashboard: status,
    adminDetail: status,
    adminList: status,
  });
  if (planId) {
    expect(mine.plan?._id, why).toBe(planId);
    expect(detail.subscription?.cancelAtPeriodEnd, why).toBe(row?.cancelAtPeriodEnd);
  }
}
