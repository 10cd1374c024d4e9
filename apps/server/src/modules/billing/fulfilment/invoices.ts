import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  billingPrices,
  type CheckoutSessionRow,
  payments,
  subscriptionPlans,
  type UserSubscriptionRow,
} from "../../../db/schema/index.ts";
import type { InvoiceInfo } from "../../../providers/payments/index.ts";
import { applyCreditMovement } from "../../credits/ledger.ts";
import { enqueuePaymentFailed, enqueueReceipt } from "../../fan-mail/enqueue.ts";
import { enqueuePush } from "../../push/enqueue.ts";
import {
  endMismatchedSubscription,
  planOf,
  recordHistory,
} from "../subscriptions/subscription-mirror.ts";
import { currencyOf, type EventContext } from "./event-context.ts";
import { invoiceEntry } from "./invoice-entry.ts";
import { invoicePayment } from "./invoice-payment.ts";
import { type MoneyAmount, paymentMismatch } from "./verify-payment.ts";

/**
 * What a subscription's invoice must bill (docs/decisions/0036): the first one the plan price
 * of its checkout, else the price the subscription is on (the Price this app made at Stripe,
 * the sandbox's own record); a renewal the same. Prorations are the provider's computation:
 * not checked here.
 */
async function soldFor(
  tx: Database,
  invoice: InvoiceInfo,
  row: UserSubscriptionRow,
  checkout: CheckoutSessionRow | null,
): Promise<MoneyAmount | null> {
  if (
    invoice.billingReason !== "subscription_create" &&
    invoice.billingReason !== "subscription_cycle"
  )
    return null;
  if (checkout && invoice.billingReason === "subscription_create") {
    return { amountMinor: checkout.amountMinor, currency: checkout.currency };
  }
  // A free trial's first invoice bills nothing (decision 0083); its first charge is a cycle.
  if (row.trialEnd && invoice.billingReason === "subscription_create") {
    return { amountMinor: 0, currency: row.currency };
  }
  const madeFor = invoice.subscriptionMetadata.planId;
  // Made before a plan change (a declined renewal paid on retry after it): the row's price is
  // the new plan's, not what this invoice sold; the provider billed it as it was made.
  if (madeFor && madeFor !== row.planId) return null;
  if (row.priceId) {
    const [price] = await tx
      .select({ amountMinor: billingPrices.amountMinor, currency: billingPrices.currency })
      .from(billingPrices)
      .where(eq(billingPrices.priceId, row.priceId));
    if (price) return price;
  }
  return row.provider === "sandbox"
    ? { amountMinor: row.priceMinor, currency: row.currency }
    : null;
}

/** The plan an invoice was made for (a later change may have moved the row on) and its name. */
async function invoicedPlan(tx: Database, invoice: InvoiceInfo, row: UserSubscriptionRow) {
  const planId = invoice.subscriptionMetadata.planId ?? row.planId;
  const plan = await planOf(tx, planId);
  return { planId, plan, planName: plan?.name ?? "Subscription" };
}

/**
 * The plan credits the subscription's current period already covers when a plan change is
 * invoiced: the highest of the plan it changes from (granted with the period's payment, or due
 * with a renewal still to be paid) and every plan paid for in this period (its first payment or
 * renewal, earlier changes). An upgrade grants only what its plan has beyond that.
 */
async function creditsCoveredThisPeriod(
  tx: Database,
  invoice: InvoiceInfo,
  row: UserSubscriptionRow,
): Promise<number | null> {
  const previousPlanId = invoice.subscriptionMetadata.previousPlanId;
  const previous = previousPlanId ? await planOf(tx, previousPlanId) : undefined;
  const [paid] = await tx
    .select({ credits: sql<number | null>`max(${subscriptionPlans.credits})` })
    .from(payments)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, payments.planId))
    .where(
      and(
        eq(payments.subscriptionId, row.id),
        inArray(payments.status, ["success", "refunded"]),
        gte(payments.transactionDate, row.currentPeriodStart),
      ),
    );
  const highestPaid = paid?.credits == null ? null : Number(paid.credits);
  if (previous === undefined && highestPaid === null) return null;
  return Math.max(previous?.credits ?? 0, highestPaid ?? 0);
}

/**
 * A paid invoice of a subscription: the payment, the plan's credits, "renewed" on a cycle.
 * Answers false when the amount paid does not match the sale (recorded failed, nothing granted).
 */
export async function recordPaidInvoice(
  context: EventContext,
  invoice: InvoiceInfo,
  row: UserSubscriptionRow,
  checkout: CheckoutSessionRow | null,
): Promise<boolean> {
  if (invoice.status !== "paid") return true;
  const { tx } = context;
  const checkoutSessionId = checkout?.sessionId ?? null;
  const { planId, plan, planName } = await invoicedPlan(tx, invoice, row);
  const sold = await soldFor(tx, invoice, row, checkout);
  const mismatch =
    sold && paymentMismatch(sold, { amountMinor: invoice.totalMinor, currency: invoice.currency });
  if (mismatch) {
    await tx
      .insert(payments)
      .values({
        ...invoicePayment(invoice, { ...row, subscriptionId: row.id, planId }),
        status: "failed",
        itemName: planName,
        checkoutSessionId,
        metadata: {
          billingReason: invoice.billingReason,
          failureReason: mismatch,
          charged: { amountMinor: invoice.amountPaid, currency: invoice.currency },
        },
      })
      .onConflictDoNothing({ target: payments.sourceKey });
    context.log.warn(
      { invoiceId: invoice.id, mismatch },
      "Subscription payment does not match the sale",
    );
    // A first payment that was not the plan's price buys no plan; a renewal's keeps the plan
    // (the operator sees the failed row and can refund it).
    if (invoice.billingReason === "subscription_create") {
      await endMismatchedSubscription(context, row, planName);
    }
    return false;
  }
  const covered =
    invoice.billingReason === "subscription_update"
      ? await creditsCoveredThisPeriod(tx, invoice, row)
      : null;
  const entry = invoiceEntry(invoice, planName, plan?.credits ?? 0, covered, row.trialEnd !== null);
  const [inserted] = await tx
    .insert(payments)
    .values({
      ...invoicePayment(invoice, { ...row, subscriptionId: row.id, planId }),
      status: entry.status,
      amountMinor: entry.amountMinor,
      credits: entry.credits,
      itemName: entry.itemName,
      checkoutSessionId,
      // A promotion code lowered the first invoice only (decision 0083).
      ...(checkout && invoice.billingReason === "subscription_create"
        ? { discountMinor: checkout.discountMinor, promotionCode: checkout.promotionCode }
        : {}),
      metadata: {
        billingReason: invoice.billingReason,
        totalMinor: invoice.totalMinor,
        creditAppliedMinor: invoice.creditAppliedMinor,
      },
    })
    .onConflictDoNothing({ target: payments.sourceKey })
    .returning({ id: payments.id });
  if (!inserted) return true;
  await context.probe("payment-recorded");
  // A deleted account (userId null) gets no mail and, below, no credits.
  if (entry.status === "success" && entry.amountMinor > 0 && row.userId) {
    await enqueueReceipt(
      tx,
      row.userId,
      `invoice:${invoice.id}`,
      {
        item: entry.itemName,
        purchase: "subscription",
        credits: entry.credits,
        amountMinor: entry.amountMinor,
        currency: currencyOf(invoice.currency),
        // The invoice's own date, as its payment row (invoicePayment) has it.
        paidAt: invoice.created.toISOString(),
        transactionId: invoice.paymentId ?? invoice.number ?? invoice.id,
        periodEnd: row.currentPeriodEnd.toISOString(),
        ...(checkout && invoice.billingReason === "subscription_create"
          ? { discountMinor: checkout.discountMinor, promotionCode: checkout.promotionCode }
          : {}),
      },
      invoice.billingReason === "subscription_cycle",
    );
  }
  if (entry.credits > 0 && plan && row.userId) {
    await applyCreditMovement(tx, {
      userId: row.userId,
      kind: "subscription_grant",
      amount: entry.credits,
      sourceKey: `invoice:${invoice.id}`,
      metadata: { planId: plan.id, invoiceId: invoice.id },
    });
    await context.probe("credits-granted");
  }
  if (invoice.billingReason === "subscription_cycle") {
    await recordHistory(tx, row, {
      planName,
      type: "renewed",
      sourceKey: `invoice:${invoice.id}:renewed`,
      amountMinor: invoice.amountPaid,
    });
  }
  return true;
}

/**
 * A declined invoice: a failed payment row and a payment_failed event, once per attempt.
 * `failedAttempt` is the attempt the event told of: the invoice re-read may have been retried
 * (and paid) since, and its count is then that later attempt's.
 */
export async function recordFailedInvoice(
  context: EventContext,
  invoice: InvoiceInfo,
  row: UserSubscriptionRow,
  failedAttempt: number | null,
): Promise<void> {
  const { tx } = context;
  const { planId, planName } = await invoicedPlan(tx, invoice, row);
  const attempt = Math.max(failedAttempt ?? invoice.attemptCount, 1);
  if (invoice.billingReason === "subscription_cycle") {
    // The fan's "failed renewal" notification (one a day at most; docs/decisions/0082).
    await enqueuePush(tx, {
      kind: "renewalFailed",
      key: `renewal-failed:${invoice.id}:${attempt}`,
      userId: row.userId,
      payload: { planName },
    });
  }
  await enqueuePaymentFailed(tx, row.userId, `invoice:${invoice.id}:failed:${attempt}`, {
    item: planName,
    purchase: "subscription",
    amountMinor: invoice.amountDue,
    currency: currencyOf(invoice.currency),
    failedAt: context.now().toISOString(),
    transactionId: invoice.number ?? invoice.id,
  });
  await tx
    .insert(payments)
    .values({
      ...invoicePayment(invoice, { ...row, subscriptionId: row.id, planId }),
      status: "failed",
      amountMinor: invoice.amountDue,
      itemName: planName,
      sourceKey: `invoice:${invoice.id}:failed:${attempt}`,
      // When the attempt failed (now), never before the invoice it tried to pay was made.
      transactionDate: new Date(Math.max(context.now().getTime(), invoice.created.getTime())),
      metadata: { billingReason: invoice.billingReason, attempt },
    })
    .onConflictDoNothing({ target: payments.sourceKey });
  await recordHistory(tx, row, {
    planName,
    type: "payment_failed",
    sourceKey: `invoice:${invoice.id}:payment_failed:${attempt}`,
    amountMinor: invoice.amountDue,
  });
}
