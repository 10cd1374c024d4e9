import type Stripe from "stripe";
import { ProviderError, toProviderError, unreachable } from "../errors.ts";
import { lazy } from "../lazy.ts";
import type {
  ChargeInfo,
  CheckoutItem,
  CheckoutSessionInfo,
  InvoiceInfo,
  PaymentEvent,
  PaymentIntentInfo,
  PaymentsCatalogue,
  PaymentsProvider,
  ProviderPrice,
  ProviderProduct,
  ProviderSubscriptionStatus,
  Recurring,
  RefundInfo,
  SubscriptionInfo,
} from "./types.ts";

export interface StripeOptions {
  secretKey: string;
  /** STRIPE_API_BASE (tests point the SDK at a local server); unset: api.stripe.com. */
  apiBase?: string | undefined;
  /**
   * The SDK's requests go to this `fetch` instead of the network: the sandbox hands it the
   * Stripe emulator in-process (emulatorFetch, decision 0094).
   */
  fetch?: typeof fetch | undefined;
  /** The clock checkout expiries count from (the sandbox's billing clock); unset: Date.now. */
  now?: (() => Date) | undefined;
}

/** The metadata key that marks products made by this app (sync-stripe lists them). */
export const PRODUCT_KIND_KEY = "twinline_kind";

const PLAN_CHECKOUT_LIFETIME_S = 35 * 60;

const loadStripe = lazy(async () => (await import("stripe")).default);

/** A Stripe SDK error in Stripe's own words. */
async function stripeError(error: unknown): Promise<ProviderError> {
  const StripeSdk = await loadStripe();
  if (error instanceof StripeSdk.errors.StripeConnectionError) return unreachable("Stripe", error);
  if (error instanceof StripeSdk.errors.StripeError) {
    return new ProviderError("Stripe", error.message, error.statusCode);
  }
  return toProviderError("Stripe", error);
}

async function isMissing(error: unknown): Promise<boolean> {
  const StripeSdk = await loadStripe();
  return error instanceof StripeSdk.errors.StripeError && error.statusCode === 404;
}

export async function createStripeClient(options: StripeOptions): Promise<Stripe> {
  const StripeSdk = await loadStripe();
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  return new StripeSdk(options.secretKey, {
    maxNetworkRetries: 1,
    timeout: 30_000,
    telemetry: false,
    ...(options.fetch ? { httpClient: StripeSdk.createFetchHttpClient(options.fetch) } : {}),
    ...(base
      ? {
          host: base.hostname,
          protocol: base.protocol === "http:" ? "http" : "https",
          ...(base.port ? { port: Number(base.port) } : {}),
        }
      : {}),
  });
}

/** How far a webhook's signing time may be from now, either way (Stripe's default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Checks a webhook's `Stripe-Signature` on the raw body with the signing secret (the SDK's
 * constructEvent: HMAC-SHA256, 5 minutes' tolerance). The SDK only refuses a signature too old;
 * one dated in the future is refused here, so a signed body dated ahead cannot be replayed for
 * as long as that date allows. Throws when it does not match.
 */
export async function verifyStripeWebhook(
  rawBody: Buffer,
  signature: string,
  secret: string,
): Promise<PaymentEvent> {
  const StripeSdk = await loadStripe();
  const event = StripeSdk.webhooks.constructEvent(
    rawBody,
    signature,
    secret,
    WEBHOOK_TOLERANCE_SECONDS,
  );
  // constructEvent accepted it, so the header has its `t=` (Unix seconds).
  const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1]);
  if (!(signedAt - Date.now() / 1000 <= WEBHOOK_TOLERANCE_SECONDS)) {
    throw new Error("Webhook signature dated in the future");
  }
  return event as unknown as PaymentEvent;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

const date = (seconds: number | null | undefined): Date | null =>
  seconds == null ? null : new Date(seconds * 1000);

const toProduct = (product: Stripe.Product): ProviderProduct => ({
  id: product.id,
  name: product.name,
  active: product.active,
  metadata: { ...product.metadata },
});

const toRecurring = (recurring: Stripe.Price.Recurring | null | undefined): Recurring | null =>
  recurring
    ? {
        interval: recurring.interval as Recurring["interval"],
        intervalCount: recurring.interval_count,
      }
    : null;

const toPrice = (price: Stripe.Price): ProviderPrice => ({
  id: price.id,
  productId: idOf(price.product as string | Stripe.Product) ?? "",
  active: price.active,
  amountMinor: price.unit_amount ?? 0,
  currency: price.currency,
  recurring: toRecurring(price.recurring),
});

function toSubscription(subscription: Stripe.Subscription): SubscriptionInfo {
  const item = subscription.items?.data?.[0];
  const created = new Date(subscription.created * 1000);
  return {
    id: subscription.id,
    status: subscription.status as ProviderSubscriptionStatus,
    customerId: idOf(subscription.customer as string | Stripe.Customer),
    itemId: item?.id ?? null,
    priceId: item?.price?.id ?? null,
    amountMinor: item?.price?.unit_amount ?? 0,
    currency: item?.price?.currency ?? subscription.currency,
    recurring: toRecurring(item?.price?.recurring),
    // Since API 2025-03-31 the period is the item's.
    currentPeriodStart: date(item?.current_period_start) ?? created,
    currentPeriodEnd: date(item?.current_period_end) ?? created,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    canceledAt: date(subscription.canceled_at),
    trialEnd: date(subscription.trial_end),
    metadata: { ...subscription.metadata },
    latestInvoiceId: idOf(subscription.latest_invoice as string | Stripe.Invoice | null),
    created,
  };
}

function toInvoice(invoice: Stripe.Invoice): InvoiceInfo {
  const parent = invoice.parent?.subscription_details?.subscription;
  const payment = invoice.payments?.data?.[0]?.payment;
  const line = invoice.lines?.data?.[0];
  return {
    id: invoice.id ?? "",
    number: invoice.number ?? null,
    status: (invoice.status ?? "draft") as InvoiceInfo["status"],
    subscriptionId: idOf(parent as string | Stripe.Subscription | null | undefined),
    amountPaid: invoice.amount_paid,
    amountDue: invoice.amount_due,
    totalMinor: invoice.total,
    // The balance is negative while it holds credit: what it rose by is the credit used.
    creditAppliedMinor: Math.max(
      0,
      (invoice.ending_balance ?? 0) - (invoice.starting_balance ?? 0),
    ),
    subscriptionMetadata: { ...(invoice.parent?.subscription_details?.metadata ?? {}) },
    currency: invoice.currency,
    billingReason: invoice.billing_reason ?? null,
    paymentId:
      idOf(payment?.payment_intent as string | Stripe.PaymentIntent | undefined) ??
      idOf(payment?.charge as string | Stripe.Charge | undefined),
    periodStart: date(line?.period?.start ?? invoice.period_start),
    periodEnd: date(line?.period?.end ?? invoice.period_end),
    created: new Date(invoice.created * 1000),
    attemptCount: invoice.attempt_count ?? 0,
  };
}

function toSession(session: Stripe.Checkout.Session): CheckoutSessionInfo {
  return {
    id: session.id,
    mode: session.mode === "subscription" ? "subscription" : "payment",
    status: (session.status ?? "open") as CheckoutSessionInfo["status"],
    paymentStatus: session.payment_status as CheckoutSessionInfo["paymentStatus"],
    clientReferenceId: session.client_reference_id,
    metadata: { ...(session.metadata ?? {}) },
    subscriptionId: idOf(session.subscription as string | Stripe.Subscription | null),
    paymentIntentId: idOf(session.payment_intent as string | Stripe.PaymentIntent | null),
    customerId: idOf(session.customer as string | Stripe.Customer | null),
    amountTotal: session.amount_total ?? 0,
    currency: session.currency ?? "usd",
  };
}

function toPaymentIntent(intent: Stripe.PaymentIntent): PaymentIntentInfo {
  const error = intent.last_payment_error;
  return {
    id: intent.id,
    status: intent.status as PaymentIntentInfo["status"],
    amountMinor: intent.amount,
    currency: intent.currency,
    metadata: { ...(intent.metadata ?? {}) },
    lastPaymentError: error
      ? { message: error.message ?? null, code: error.code ?? null, chargeId: error.charge ?? null }
      : null,
  };
}

/**
 * The payment intent a `payment_intent.*` event carries, as it was when the event was made (the
 * signature proves it is Stripe's): a failed attempt's error is only there, since the intent
 * itself forgets it at the buyer's next attempt. Null when the event carries no payment intent.
 */
export function paymentIntentOfEvent(event: PaymentEvent): PaymentIntentInfo | null {
  const object = event.data.object;
  if (object.object !== "payment_intent" || typeof object.id !== "string") return null;
  return toPaymentIntent(object as unknown as Stripe.PaymentIntent);
}

function toRefund(refund: Stripe.Refund): RefundInfo {
  return {
    id: refund.id,
    paymentId:
      idOf(refund.payment_intent as string | Stripe.PaymentIntent | null) ??
      idOf(refund.charge as string | Stripe.Charge | null),
    amountMinor: refund.amount,
    currency: refund.currency,
    status: (refund.status ?? "pending") as RefundInfo["status"],
    metadata: { ...(refund.metadata ?? {}) },
  };
}

function toCharge(charge: Stripe.Charge): ChargeInfo {
  return {
    id: charge.id,
    paymentIntentId: idOf(charge.payment_intent as string | Stripe.PaymentIntent | null),
    amountMinor: charge.amount,
    amountRefundedMinor: charge.amount_refunded,
    currency: charge.currency,
    refunds: (charge.refunds?.data ?? []).map(toRefund),
  };
}

/** A line item: the Price when there is one, else inline price data. */
function lineItem(item: CheckoutItem): Stripe.Checkout.SessionCreateParams.LineItem {
  if (item.priceId) return { price: item.priceId, quantity: 1 };
  return {
    quantity: 1,
    price_data: {
      currency: item.currency,
      unit_amount: item.amountMinor,
      product_data: {
        name: item.name,
        ...(item.description ? { description: item.description } : {}),
      },
      ...(item.recurring
        ? {
            recurring: {
              interval: item.recurring.interval,
              interval_count: item.recurring.intervalCount,
            },
          }
        : {}),
    },
  };
}

export function createStripePayments(options: StripeOptions): PaymentsProvider {
  const stripe = lazy(() => createStripeClient(options));
  const nowSeconds = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  /** Runs a Stripe call, mapping its errors; a 404 (missing object) answers null. */
  const orNull = async <T>(run: (client: Stripe) => Promise<T>): Promise<T | null> => {
    try {
      return await run(await stripe());
    } catch (error) {
      if (await isMissing(error)) return null;
      throw await stripeError(error);
    }
  };
  const call = async <T>(run: (client: Stripe) => Promise<T>): Promise<T> => {
    try {
      return await run(await stripe());
    } catch (error) {
      throw await stripeError(error);
    }
  };

  const catalogue: PaymentsCatalogue = {
    createProduct: (input) =>
      call(async (client) =>
        toProduct(
          await client.products.create({
            name: input.name,
            ...(input.description ? { description: input.description } : {}),
            metadata: input.metadata,
          }),
        ),
      ),
    updateProduct: (productId, changes) =>
      call(async (client) =>
        toProduct(
          await client.products.update(productId, {
            ...(changes.name !== undefined ? { name: changes.name } : {}),
            // Stripe refuses an empty description: "" clears it.
            ...(changes.description !== undefined ? { description: changes.description } : {}),
            ...(changes.active !== undefined ? { active: changes.active } : {}),
          }),
        ),
      ),
    retrieveProduct: (productId) =>
      orNull(async (client) => toProduct(await client.products.retrieve(productId))),
    listProducts: () =>
      call(async (client) => {
        const found: ProviderProduct[] = [];
        for await (const product of client.products.list({ limit: 100 })) {
          if (product.metadata?.[PRODUCT_KIND_KEY]) found.push(toProduct(product));
        }
        return found;
      }),
    createPrice: (input) =>
      call(async (client) =>
        toPrice(
          await client.prices.create({
            product: input.productId,
            unit_amount: input.amountMinor,
            currency: input.currency,
            metadata: input.metadata,
            ...(input.recurring
              ? {
                  recurring: {
                    interval: input.recurring.interval,
                    interval_count: input.recurring.intervalCount,
                  },
                }
              : {}),
          }),
        ),
      ),
    retrievePrice: (priceId) =>
      orNull(async (client) => toPrice(await client.prices.retrieve(priceId))),
    deactivatePrice: (priceId) =>
      call(async (client) => {
        await client.prices.update(priceId, { active: false });
      }),
    createPromotion: (input) =>
      call(async (client) => {
        const coupon = await client.coupons.create({
          name: input.code,
          // The first payment only (a package's, or a plan's first period): decision 0083.
          duration: "once",
          ...(input.percentBasisPoints !== null
            ? { percent_off: input.percentBasisPoints / 100 }
            : { amount_off: input.amountOffMinor ?? 0, currency: input.currency ?? "usd" }),
          metadata: input.metadata,
        });
        const promotionCode = await client.promotionCodes.create({
          promotion: { type: "coupon", coupon: coupon.id },
          code: input.code,
          expires_at: Math.floor(input.expiresAt.getTime() / 1000),
          ...(input.maxRedemptions !== null ? { max_redemptions: input.maxRedemptions } : {}),
          metadata: input.metadata,
        });
        return { couponId: coupon.id, promotionCodeId: promotionCode.id };
      }),
    setPromotionCodeActive: (promotionCodeId, active) =>
      call(async (client) => {
        await client.promotionCodes.update(promotionCodeId, { active });
      }),
  };

  const retrieveSubscription = (subscriptionId: string) =>
    orNull(async (client) => toSubscription(await client.subscriptions.retrieve(subscriptionId)));

  return {
    mode: "stripe",
    catalogue,
    async retrieveBalance() {
      return call(async (client) => {
        const balance = await client.balance.retrieve();
        return balance.available.map(({ amount, currency }) => ({ amount, currency }));
      });
    },

    createCheckoutSession: (input) =>
      call(async (client) => {
        const session = await client.checkout.sessions.create({
          mode: input.mode,
          line_items: [lineItem(input.item)],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          client_reference_id: input.userId,
          customer_email: input.email,
          metadata: input.metadata,
          ...(input.discount?.promotionCodeId
            ? { discounts: [{ promotion_code: input.discount.promotionCodeId }] }
            : {}),
          ...(input.mode === "subscription"
            ? {
                subscription_data: {
                  metadata: input.metadata,
                  // A free trial (decision 0083): trialing, a $0 first invoice, the first
                  // charge at its end.
                  ...(input.trialDays ? { trial_period_days: input.trialDays } : {}),
                },
                // One plan checkout may be open at a time (decision 0051): an abandoned one
                // stops blocking the next after 35 minutes (Stripe's minimum is 30).
                expires_at: nowSeconds() + PLAN_CHECKOUT_LIFETIME_S,
              }
            : { payment_intent_data: { metadata: input.metadata } }),
        });
        if (!session.url) throw new ProviderError("Stripe", "Stripe answered no checkout URL");
        return {
          sessionId: session.id,
          url: session.url,
          expiresAt: new Date(session.expires_at * 1000),
          amountTotalMinor: session.amount_total ?? null,
        };
      }),

    retrieveCheckoutSession: (sessionId) =>
      orNull(async (client) => toSession(await client.checkout.sessions.retrieve(sessionId))),

    retrieveSubscription,

    retrievePaymentIntent: (paymentIntentId) =>
      orNull(async (client) =>
        toPaymentIntent(await client.paymentIntents.retrieve(paymentIntentId)),
      ),

    checkoutSessionOfPaymentIntent: (paymentIntentId) =>
      call(async (client) => {
        const found = await client.checkout.sessions.list({
          payment_intent: paymentIntentId,
          limit: 1,
        });
        const session = found.data[0];
        return session ? toSession(session) : null;
      }),

    retrieveInvoice: (invoiceId) =>
      orNull(async (client) =>
        toInvoice(await client.invoices.retrieve(invoiceId, { expand: ["payments"] })),
      ),

    previewPriceChange: (subscriptionId, item) =>
      call(async (client) => {
        const current = await client.subscriptions.retrieve(subscriptionId);
        const itemId = current.items.data[0]?.id;
        if (!itemId || !item.priceId) {
          throw new ProviderError("Stripe", "The subscription or the plan has no Stripe price");
        }
        const preview = await client.invoices.createPreview({
          subscription: subscriptionId,
          subscription_details: {
            items: [{ id: itemId, price: item.priceId }],
            proration_behavior: "always_invoice",
          },
        });
        return { amountDueMinor: preview.amount_due, currency: preview.currency };
      }),

    changeSubscriptionPrice: (subscriptionId, item, metadata, idempotencyKey) =>
      call(async (client) => {
        const current = await client.subscriptions.retrieve(subscriptionId);
        const itemId = current.items.data[0]?.id;
        if (!itemId || !item.priceId) {
          throw new ProviderError("Stripe", "The subscription or the plan has no Stripe price");
        }
        // always_invoice: an upgrade's proration is charged at once; a downgrade's negative
        // invoice goes to the customer's balance, which Stripe applies to the next invoice.
        return toSubscription(
          await client.subscriptions.update(
            subscriptionId,
            {
              items: [{ id: itemId, price: item.priceId }],
              proration_behavior: "always_invoice",
              // A proration the card refuses fails the call and changes nothing (402).
              payment_behavior: "error_if_incomplete",
              cancel_at_period_end: false,
              metadata: { ...current.metadata, ...metadata, changeKey: idempotencyKey },
            },
            { idempotencyKey },
          ),
        );
      }),

    changeInvoice: (subscriptionId, changeKey) =>
      call(async (client) => {
        // A change's invoice is among the subscription's newest (the sweep comes minutes later).
        const listed = await client.invoices.list({
          subscription: subscriptionId,
          limit: 20,
          expand: ["data.payments"],
        });
        const made = listed.data.find(
          (invoice) =>
            invoice.billing_reason === "subscription_update" &&
            invoice.parent?.subscription_details?.metadata?.changeKey === changeKey,
        );
        return made ? toInvoice(made) : null;
      }),

    cancelAtPeriodEnd: (subscriptionId) =>
      call(async (client) =>
        toSubscription(
          await client.subscriptions.update(subscriptionId, { cancel_at_period_end: true }),
        ),
      ),

    resumeSubscription: (subscriptionId) =>
      call(async (client) =>
        toSubscription(
          await client.subscriptions.update(subscriptionId, { cancel_at_period_end: false }),
        ),
      ),

    cancelNow: (subscriptionId) =>
      call(async (client) =>
        toSubscription(await client.subscriptions.cancel(subscriptionId, { prorate: false })),
      ),

    refund: (input) =>
      call(async (client) =>
        toRefund(
          await client.refunds.create(
            {
              ...(input.paymentId.startsWith("ch_")
                ? { charge: input.paymentId }
                : { payment_intent: input.paymentId }),
              amount: input.amountMinor,
              reason: "requested_by_customer",
              metadata: input.metadata,
            },
            { idempotencyKey: `refund-${input.idempotencyKey}` },
          ),
        ),
      ),

    retrieveCharge: (chargeId) =>
      orNull(async (client) =>
        toCharge(await client.charges.retrieve(chargeId, { expand: ["refunds"] })),
      ),

    retrieveDispute: (disputeId) =>
      orNull(async (client) => {
        const dispute = await client.disputes.retrieve(disputeId);
        return {
          id: dispute.id,
          chargeId: idOf(dispute.charge as string | Stripe.Charge),
          paymentIntentId: idOf(dispute.payment_intent as string | Stripe.PaymentIntent | null),
          amountMinor: dispute.amount,
          currency: dispute.currency,
          status: dispute.status,
          reason: dispute.reason,
        };
      }),
  };
}
