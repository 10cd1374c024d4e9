import { eq } from "drizzle-orm";
import { type CheckoutSessionRow, checkoutSessions, payments } from "../../../db/schema/index.ts";
import type {
  CheckoutSessionInfo,
  InvoiceInfo,
  PaymentIntentInfo,
  SubscriptionInfo,
} from "../../../providers/payments/index.ts";
import { applyCreditMovement } from "../../credits/ledger.ts";
import { enqueuePaymentFailed, enqueueReceipt } from "../../fan-mail/enqueue.ts";
import { syncSubscription } from "../subscriptions/subscription-mirror.ts";
import type { EventContext } from "./event-context.ts";
import { recordFailedCheckout, recordProviderFailure } from "./failed-payments.ts";
import { recordPaidInvoice } from "./invoices.ts";
import { paymentMismatch } from "./verify-payment.ts";

/** What the provider says of one checkout session, read before the event's transaction. */
export interface CheckoutOutcome {
  eventType: string;
  eventId: string;
  session: CheckoutSessionInfo;
  subscription: SubscriptionInfo | null;
  invoice: InvoiceInfo | null;
  /** The session's payment intent, read when its delayed payment failed (Stripe's reason). */
  paymentIntent: PaymentIntentInfo | null;
}

/**
 * A package checkout's paid payment, at the amount the provider took (verified equal to the
 * price). It shares the session's source key with an asynchronous failure: one row per session,
 * which a later success takes over.
 */
const checkoutPayment = (
  row: CheckoutSessionRow,
  session: CheckoutSessionInfo,
  paidAt: Date,
): typeof payments.$inferInsert => ({
  kind: "credits",
  userId: row.userId,
  status: "success",
  amountMinor: session.amountTotal,
  currency: row.currency,
  credits: row.credits ?? 0,
  packageId: row.packageId,
  itemName: row.itemName,
  provider: row.provider,
  stripePaymentId: session.paymentIntentId,
  checkoutSessionId: row.sessionId,
  sourceKey: `checkout:${row.sessionId}`,
  discountMinor: row.discountMinor,
  promotionCode: row.promotionCode,
  transactionDate: paidAt,
});

/** A package's credits and its payment row. */
async function fulfilPackage(
  context: EventContext,
  row: CheckoutSessionRow,
  session: CheckoutSessionInfo,
) {
  await applyCreditMovement(context.tx, {
    userId: row.userId,
    kind: "purchase",
    amount: row.credits ?? 0,
    sourceKey: `checkout:${row.sessionId}`,
    metadata: { packageId: row.packageId, sessionId: row.sessionId },
  });
  await context.probe("credits-granted");
  const paidAt = context.now();
  await context.tx
    .insert(payments)
    .values(checkoutPayment(row, session, paidAt))
    .onConflictDoUpdate({
      target: payments.sourceKey,
      set: {
        status: "success",
        transactionDate: paidAt,
        amountMinor: session.amountTotal,
        stripePaymentId: session.paymentIntentId,
        metadata: {},
      },
    });
  await context.probe("payment-recorded");
  await enqueueReceipt(context.tx, row.userId, `checkout:${row.sessionId}`, {
    item: row.itemName,
    purchase: "credits",
    credits: row.credits ?? 0,
    amountMinor: session.amountTotal,
    currency: row.currency,
    discountMinor: row.discountMinor,
    promotionCode: row.promotionCode,
    paidAt: paidAt.toISOString(),
    transactionId: session.paymentIntentId ?? row.sessionId,
  });
}

const setSession = (
  context: EventContext,
  row: CheckoutSessionRow,
  values: Partial<typeof checkoutSessions.$inferInsert>,
) => context.tx.update(checkoutSessions).set(values).where(eq(checkoutSessions.id, row.id));

/** The session's row, locked; null for a session not made by this app. */
async function lockCheckoutRow(
  context: EventContext,
  session: CheckoutSessionInfo,
): Promise<CheckoutSessionRow | null> {
  const [row] = await context.tx
    .select()
    .from(checkoutSessions)
    .where(eq(checkoutSessions.sessionId, session.id))
    .for("update");
  if (row) return row;
  // Ours (its metadata names the user) but not recorded yet: the checkout call that made it
  // has not committed. Fail, so the provider delivers the event again later.
  if (session.metadata.userId) throw new Error(`Checkout session ${session.id} not recorded yet`);
  context.log.warn({ sessionId: session.id }, "Checkout session unknown to this app: ignored");
  return null;
}

/**
 * `payment_intent.payment_failed`: one failed attempt at a package checkout (a declined card),
 * a `failed` row with the provider's reason; the session stays as it is (open: the buyer may
 * try again, and a later success is fulfilled as usual). A payment intent of no checkout
 * session (a subscription's invoice, whose failure `invoice.payment_failed` records) is left.
 */
export async function applyFailedPaymentIntent(
  context: EventContext,
  failure: { eventId: string; intent: PaymentIntentInfo; session: CheckoutSessionInfo | null },
): Promise<void> {
  const { eventId, intent, session } = failure;
  if (session?.mode !== "payment") return;
  const row = await lockCheckoutRow(context, session);
  if (!row) return;
  await recordProviderFailure(context.tx, row, session, {
    error: intent.lastPaymentError,
    paymentIntentId: intent.id,
    eventId,
    at: context.now(),
  });
}

/** A checkout session's outcome, once per session (its row locked, `fulfilled_at` set). */
export async function applyCheckout(
  context: EventContext,
  { eventType, eventId, session, subscription, invoice, paymentIntent }: CheckoutOutcome,
): Promise<void> {
  const row = await lockCheckoutRow(context, session);
  if (!row) return;
  if (session.status === "expired") {
    if (!row.fulfilledAt && row.status === "open") {
      const status = eventType === "checkout.session.expired" ? "expired" : "canceled";
      await setSession(context, row, { status });
    }
    return;
  }
  const paid = session.paymentStatus === "paid" || session.paymentStatus === "no_payment_required";
  if (!paid) {
    if (eventType === "checkout.session.async_payment_failed" && !row.fulfilledAt) {
      await setSession(context, row, { paymentStatus: "failed" });
      await recordProviderFailure(context.tx, row, session, {
        error: paymentIntent?.lastPaymentError ?? null,
        paymentIntentId: session.paymentIntentId,
        eventId,
        at: context.now(),
      });
      // A delayed payment fails when the fan has long left the checkout: they are told.
      await enqueuePaymentFailed(context.tx, row.userId, `checkout:${row.sessionId}`, {
        item: row.itemName,
        purchase: row.mode === "payment" ? "credits" : "subscription",
        amountMinor: row.amountMinor,
        currency: row.currency,
        failedAt: context.now().toISOString(),
        transactionId: session.paymentIntentId ?? row.sessionId,
        reason: paymentIntent?.lastPaymentError?.message ?? null,
      });
    }
    return;
  }
  if (row.fulfilledAt) return;
  const paidAmount = { amountMinor: session.amountTotal, currency: session.currency };
  const mismatch =
    row.mode === "payment"
      ? paymentMismatch({ amountMinor: row.amountMinor, currency: row.currency }, paidAmount)
      : null;
  if (mismatch) {
    // Charged, but not what was sold: nothing granted; the admin sees the row and its reason.
    await recordFailedCheckout(context.tx, row, {
      sourceKey: `checkout:${row.sessionId}`,
      reason: mismatch,
      charged: paidAmount,
      paymentId: session.paymentIntentId,
      at: context.now(),
    });
    await setSession(context, row, { status: "complete", paymentStatus: "failed" });
    context.log.warn(
      { sessionId: row.sessionId, mismatch },
      "Checkout payment does not match the sale",
    );
    return;
  }
  if (row.mode === "payment") {
    await fulfilPackage(context, row, session);
  } else {
    const fallback = { userId: row.userId, planId: row.planId };
    const mirrored = await syncSubscription(context, subscription, fallback);
    const verified =
      mirrored && invoice ? await recordPaidInvoice(context, invoice, mirrored, row) : true;
    if (!verified) {
      // Paid, but not the plan's price: the return page says failed; the sweep leaves it.
      await setSession(context, row, { status: "complete", paymentStatus: "failed" });
      return;
    }
  }
  await setSession(context, row, {
    status: "complete",
    paymentStatus: "paid",
    fulfilledAt: context.now(),
  });
}
