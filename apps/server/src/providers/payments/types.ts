import type { Currency, PlanInterval } from "@twinline/contracts";

export interface BalanceAmount {
  /** Minor units. */
  amount: number;
  currency: string;
}

// The currencies and intervals this app sells in are the contracts' (one list for every layer).
export type { Currency };
export type Interval = PlanInterval;

export interface Recurring {
  interval: Interval;
  intervalCount: number;
}

/** A product at the provider (a package or a plan); metadata names the local row. */
export interface ProviderProduct {
  id: string;
  name: string;
  active: boolean;
  metadata: Record<string, string>;
}

export interface ProviderPrice {
  id: string;
  productId: string;
  active: boolean;
  amountMinor: number;
  currency: string;
  recurring: Recurring | null;
}

/**
 * Products and prices at Stripe (admin-side section 4): a price change is a new Price (the old
 * one is kept for its subscribers); a delete deactivates the Product. The sandbox has none: its
 * rows stay "Not synced".
 */
export interface PaymentsCatalogue {
  createProduct(input: {
    name: string;
    description: string;
    metadata: Record<string, string>;
  }): Promise<ProviderProduct>;
  updateProduct(
    productId: string,
    changes: { name?: string; description?: string; active?: boolean },
  ): Promise<ProviderProduct>;
  retrieveProduct(productId: string): Promise<ProviderProduct | null>;
  /** Every product of this app (metadata twinline_kind set), active or not. */
  listProducts(): Promise<ProviderProduct[]>;
  createPrice(input: {
    productId: string;
    amountMinor: number;
    currency: Currency;
    recurring: Recurring | null;
    metadata: Record<string, string>;
  }): Promise<ProviderPrice>;
  retrievePrice(priceId: string): Promise<ProviderPrice | null>;
  /** Deactivates a price (no new purchases; subscriptions on it go on). */
  deactivatePrice(priceId: string): Promise<void>;
  /**
   * A promotion code at Stripe (docs/decisions/0083): a coupon (percent or amount off, once) and
   * a customer-facing promotion code on it with the same code, limit and expiry.
   */
  createPromotion(input: PromotionInput): Promise<{ couponId: string; promotionCodeId: string }>;
  /** Disables (or enables again) a promotion code at Stripe. */
  setPromotionCodeActive(promotionCodeId: string, active: boolean): Promise<void>;
}

export interface PromotionInput {
  code: string;
  /** Hundredths of a percent, or null for an amount off. */
  percentBasisPoints: number | null;
  amountOffMinor: number | null;
  currency: Currency | null;
  maxRedemptions: number | null;
  expiresAt: Date;
  metadata: Record<string, string>;
}

/**
 * A promotion code applied to a checkout: it lowers the first payment only (the session's total,
 * or a subscription's first invoice). This app computes the discount (lib/money.ts) and records
 * it; the provider's total is checked against it at fulfilment as every amount is.
 */
export interface CheckoutDiscount {
  amountOffMinor: number;
  /** Stripe's promotion code (promo_*); null in the sandbox. */
  promotionCodeId: string | null;
}

/** What is sold in a checkout session. */
export interface CheckoutItem {
  name: string;
  description: string;
  amountMinor: number;
  currency: Currency;
  /** The provider's price (Stripe); the sandbox charges amountMinor. */
  priceId: string | null;
  recurring: Recurring | null;
}

export interface CreateCheckoutInput {
  mode: "payment" | "subscription";
  userId: string;
  email: string;
  item: CheckoutItem;
  /** With {CHECKOUT_SESSION_ID}, replaced by the provider. */
  successUrl: string;
  cancelUrl: string;
  /** Copied to the session (and, for subscriptions, to the subscription). */
  metadata: Record<string, string>;
  /** A promotion code's discount on the first payment; none when absent. */
  discount?: CheckoutDiscount | null;
  /**
   * Free trial days (subscriptions; decision 0083): the subscription starts `trialing` with a $0
   * first invoice and is first charged, as a renewal, at the trial's end. 0 or absent: none.
   */
  trialDays?: number;
}

export interface CreatedCheckout {
  sessionId: string;
  url: string;
  expiresAt: Date;
  /**
   * What the provider will charge, as it computed it (Stripe's `amount_total`: the discount of a
   * promotion code is Stripe's own arithmetic); null when it does not say.
   */
  amountTotalMinor: number | null;
}

/** A checkout session as the provider has it now (re-read, never taken from the event). */
export interface CheckoutSessionInfo {
  id: string;
  mode: "payment" | "subscription";
  status: "open" | "complete" | "expired";
  paymentStatus: "paid" | "unpaid" | "no_payment_required";
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  subscriptionId: string | null;
  paymentIntentId: string | null;
  customerId: string | null;
  amountTotal: number;
  currency: string;
}

export type ProviderSubscriptionStatus =
  | "active"
  | "canceled"
  | "past_due"
  | "unpaid"
  | "incomplete"
  | "incomplete_expired"
  | "trialing"
  | "paused";

export interface SubscriptionInfo {
  id: string;
  status: ProviderSubscriptionStatus;
  customerId: string | null;
  /** The subscription's one item (its price in force). */
  itemId: string | null;
  priceId: string | null;
  amountMinor: number;
  currency: string;
  recurring: Recurring | null;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  /** The end of its free trial (decision 0083); null when it started without one. */
  trialEnd: Date | null;
  metadata: Record<string, string>;
  latestInvoiceId: string | null;
  created: Date;
}

export interface InvoiceInfo {
  id: string;
  number: string | null;
  status: "draft" | "open" | "paid" | "uncollectible" | "void";
  subscriptionId: string | null;
  amountPaid: number;
  amountDue: number;
  /**
   * What the invoice bills before account credit is applied (Stripe's `total`), signed: the price
   * of the period, which fulfilment checks against what was sold (docs/decisions/0036); a
   * downgrade's proration is negative, and that much goes to the customer's balance (0034).
   */
  totalMinor: number;
  /** Account credit (the customer's balance) this invoice used, minor units, >= 0. */
  creditAppliedMinor: number;
  /** The subscription's metadata as it was when the invoice was made (Stripe snapshots it). */
  subscriptionMetadata: Record<string, string>;
  currency: string;
  /** subscription_create, subscription_cycle, subscription_update, manual... */
  billingReason: string | null;
  paymentId: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  created: Date;
  attemptCount: number;
}

/** Why one payment attempt failed, in the provider's words (Stripe's `last_payment_error`). */
export interface PaymentAttemptError {
  /** Shown to the buyer and the admin ("Your card was declined."). */
  message: string | null;
  /** card_declined, expired_card, payment_intent_authentication_failure... */
  code: string | null;
  /** The failed charge (card errors): one per attempt, so it names the attempt. */
  chargeId: string | null;
}

export type PaymentIntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "requires_capture"
  | "canceled"
  | "succeeded";

/**
 * A payment intent: a checkout session in payment mode has one, made at its first attempt and
 * confirmed again by each retry; a failed attempt leaves it `requires_payment_method` with the
 * error of that attempt, which the provider clears once the intent changes again.
 */
export interface PaymentIntentInfo {
  id: string;
  status: PaymentIntentStatus;
  amountMinor: number;
  currency: string;
  metadata: Record<string, string>;
  lastPaymentError: PaymentAttemptError | null;
}

/** A refund at the provider (Stripe's re_*; the sandbox's re_sandbox_*). */
export interface RefundInfo {
  id: string;
  /** The payment intent (or charge) it gives money back from. */
  paymentId: string | null;
  amountMinor: number;
  currency: string;
  status: "pending" | "succeeded" | "failed" | "canceled" | "requires_action";
  /** Ours when this app asked for it: `refundId` names the local payment_refunds row. */
  metadata: Record<string, string>;
}

/** A charge with its refunds, re-read when Stripe says it was refunded. */
export interface ChargeInfo {
  id: string;
  paymentIntentId: string | null;
  amountMinor: number;
  amountRefundedMinor: number;
  currency: string;
  refunds: RefundInfo[];
}

/** A dispute (chargeback) opened by the card holder's bank. */
export interface DisputeInfo {
  id: string;
  chargeId: string | null;
  paymentIntentId: string | null;
  amountMinor: number;
  currency: string;
  status: string;
  reason: string;
}

export interface RefundInput {
  /** The payment intent (pi_*) or charge (ch_*) recorded on the payment row. */
  paymentId: string;
  amountMinor: number;
  /** The local refund row's id: a retried call refunds once. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** A webhook event (Stripe's shape; the sandbox builds the same). */
export interface PaymentEvent {
  id: string;
  type: string;
  created: number;
  data: { object: { id?: string; object?: string } & Record<string, unknown> };
}

/**
 * Payments (DESIGN.md, Providers). Stripe on the official SDK when a secret key is set, else
 * the sandbox: a checkout served by this app whose state is kept in the database
 * (docs/decisions/0016). Every object is re-read here when an event arrives, so events that come
 * out of order cannot leave stale state.
 */
export interface PaymentsProvider {
  readonly mode: "stripe" | "sandbox";
  /** A read that proves the key works (the admin's key test). */
  retrieveBalance(): Promise<BalanceAmount[]>;
  /** Stripe's products and prices; null in the sandbox. */
  readonly catalogue: PaymentsCatalogue | null;
  createCheckoutSession(input: CreateCheckoutInput): Promise<CreatedCheckout>;
  retrieveCheckoutSession(sessionId: string): Promise<CheckoutSessionInfo | null>;
  retrieveSubscription(subscriptionId: string): Promise<SubscriptionInfo | null>;
  retrievePaymentIntent(paymentIntentId: string): Promise<PaymentIntentInfo | null>;
  /**
   * The checkout session a payment intent was made for (Stripe lists sessions by
   * `payment_intent`); null for any other payment intent (a subscription's invoice).
   */
  checkoutSessionOfPaymentIntent(paymentIntentId: string): Promise<CheckoutSessionInfo | null>;
  retrieveInvoice(invoiceId: string): Promise<InvoiceInfo | null>;
  /**
   * What changing the subscription to `item` would charge now (Stripe's invoice preview with
   * proration: the new price for the rest of the period less the unused time of the old).
   */
  previewPriceChange(
    subscriptionId: string,
    item: CheckoutItem,
  ): Promise<{ amountDueMinor: number; currency: string }>;
  /**
   * Changes the price at once and invoices the proration now (docs/decisions/0034): a positive
   * one is charged at once, a negative one goes to the customer's balance for the next invoice.
   * `idempotencyKey` makes a retried call change and charge once.
   */
  changeSubscriptionPrice(
    subscriptionId: string,
    item: CheckoutItem,
    metadata: Record<string, string>,
    idempotencyKey: string,
  ): Promise<SubscriptionInfo>;
  /**
   * The invoice the plan change `changeKey` made (its key is in the invoice's snapshot of the
   * subscription's metadata): null when that change made none (a zero proration) or never
   * reached the provider. The plan-change sweep settles a change left open by a crash with it.
   */
  changeInvoice(subscriptionId: string, changeKey: string): Promise<InvoiceInfo | null>;
  cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionInfo>;
  /** Takes back a cancellation at the period end (the subscription renews again). */
  resumeSubscription(subscriptionId: string): Promise<SubscriptionInfo>;
  /** Ends the subscription now (no proration: a refund of the unused part is separate). */
  cancelNow(subscriptionId: string): Promise<SubscriptionInfo>;
  /** Gives money back (whole or part), once per idempotency key (Stripe's refunds API). */
  refund(input: RefundInput): Promise<RefundInfo>;
  retrieveCharge(chargeId: string): Promise<ChargeInfo | null>;
  retrieveDispute(disputeId: string): Promise<DisputeInfo | null>;
}

/** The sandbox's state (billing/checkout/sandbox-store.ts keeps it in the database). */
export interface SandboxStore {
  put(id: string, object: string, data: Record<string, unknown>): Promise<void>;
  get(id: string): Promise<Record<string, unknown> | null>;
  /** Writes the object only when the id is new; false when it existed. */
  create(id: string, object: string, data: Record<string, unknown>): Promise<boolean>;
  /**
   * Replaces the object only while its `field` (default `status`) is `from`; false when it was
   * not (compare-and-set: of two writers, one wins).
   */
  transition(
    id: string,
    from: string,
    data: Record<string, unknown>,
    field?: string,
  ): Promise<boolean>;
}
