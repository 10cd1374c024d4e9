import { z } from "zod";

/**
 * Billing: credit packages, subscription plans, checkout (Stripe or the offline sandbox),
 * subscriptions, transactions and subscription history (user-side sections 2, 3, 7; admin-side
 * sections 2, 3, 4, 5, 7). Money is in major units here (9.99), in minor units in the database.
 */

export const CURRENCIES = ["usd", "eur", "gbp", "inr"] as const;
export const currencySchema = z.enum(CURRENCIES, {
  error: "Currency must be one of usd, eur, gbp, inr",
});
export type Currency = z.infer<typeof currencySchema>;

export const PLAN_INTERVALS = ["day", "week", "month", "year"] as const;
export const planIntervalSchema = z.enum(PLAN_INTERVALS, {
  error: "Interval must be one of day, week, month, year",
});
export type PlanInterval = z.infer<typeof planIntervalSchema>;

export const PAYMENT_PROVIDERS = ["stripe", "sandbox"] as const;
export const paymentProviderSchema = z.enum(PAYMENT_PROVIDERS);

/** What a payment bought. */
export const PAYMENT_KINDS = ["credits", "subscription"] as const;
export const paymentKindSchema = z.enum(PAYMENT_KINDS);

/**
 * `refunded`: given back in whole (a partial refund keeps `success`, with `refundedAmount`).
 * `credited`: account credit from a downgrade (not money paid: never revenue).
 */
export const TRANSACTION_STATUSES = [
  "success",
  "pending",
  "failed",
  "refunded",
  "credited",
] as const;
export const transactionStatusSchema = z.enum(TRANSACTION_STATUSES);
export type TransactionStatus = z.infer<typeof transactionStatusSchema>;

/** A subscription's state at the payment provider (admin-side history statuses). */
export const SUBSCRIPTION_STATUSES = [
  "active",
  "canceled",
  "past_due",
  "unpaid",
  "incomplete",
  /** In a free trial (docs/decisions/0083): in force, nothing charged until the trial ends. */
  "trialing",
] as const;
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/**
 * The one reading of a subscription every answer carries (apps/server users/subscription-state.ts
 * decides it): active (renewing), trialing (in a free trial, renewing into the first charge at
 * its end), canceled (set to cancel at the period end, still in force), inactive (none in force).
 */
export const SUBSCRIPTION_VIEW_STATUSES = ["active", "trialing", "canceled", "inactive"] as const;
export const subscriptionViewStatusSchema = z.enum(SUBSCRIPTION_VIEW_STATUSES);
export type SubscriptionViewStatus = z.infer<typeof subscriptionViewStatusSchema>;

export const SUBSCRIPTION_EVENT_TYPES = [
  "created",
  "updated",
  "canceled",
  "renewed",
  "payment_failed",
] as const;
export const subscriptionEventTypeSchema = z.enum(SUBSCRIPTION_EVENT_TYPES);
export type SubscriptionEventType = z.infer<typeof subscriptionEventTypeSchema>;

/** The spec's defaults (admin-side section 9) and the user-side estimate (credits / 5). */
export const BILLING_DEFAULTS = {
  package: { credits: 100, price: 9.99, currency: "usd", discount: 0, isActive: true },
  plan: {
    price: 0,
    currency: "usd",
    interval: "month",
    intervalCount: 1,
    isActive: true,
    credits: 0,
  },
  /** The credits page estimates minutes as credits divided by this (user-side section 2). */
  creditsPerMinuteEstimate: 5,
  /** Page sizes: payment history on /dashboard/credits, on /dashboard/transactions, admin lists. */
  creditsPageHistoryLimit: 5,
  transactionsPageLimit: 10,
  adminListLimit: 10,
} as const;

/** Every text of the billing API a user or the admin can see. */
export const BILLING_MESSAGES = {
  packageNameRequired: "Package name is required",
  creditsPositive: "Credits must be greater than zero",
  priceNotNegative: "Price cannot be negative",
  packageIdMissing: "Package ID is missing",
  planNameRequired: "Plan name is required",
  intervalCountMin: "Interval count must be at least 1",
  discountRange: "Discount must be between 0 and 100",
  intervalFixed: "Interval and interval count cannot change after creation",
  packageNotFound: "Package not found",
  planNotFound: "Plan not found",
  packageInactive: "This credit package is not available",
  planInactive: "This subscription plan is not available",
  packageCreated: "Credit package created successfully",
  packageUpdated: "Credit package updated successfully",
  packageDeleted: "Credit package deleted successfully",
  packageActivated: "Package activated successfully",
  packageDeactivated: "Package deactivated successfully",
  packagesSynced: "Credit Plan Sync Completed",
  planCreated: "Subscription plan created successfully",
  planUpdated: "Subscription plan updated successfully",
  planDeleted: "Subscription plan deleted successfully",
  planActivated: "Plan activated successfully",
  planDeactivated: "Plan deactivated successfully",
  plansSynced: "Plans synced with Stripe",
  /** Sync pressed with no Stripe secret key: nothing was synced (a 200 with mode "sandbox"). */
  stripeNotConfigured:
    "Stripe is not configured: add the Stripe secret key under API Keys, then sync",
  alreadySubscribed: "You already have an active subscription. Change your plan instead.",
  noActiveSubscription: "No active subscription",
  samePlan: "You are already subscribed to this plan",
  changeInTrial:
    "Your free trial is of this plan: you can change plan once it ends, or cancel it and subscribe to another",
  planChanged: "Subscription plan changed successfully",
  canceled: "Your subscription will be canceled at the end of the current period",
  alreadyCanceling: "Your subscription is already set to cancel at the end of the period",
  resumed: "Your subscription will renew at the end of the current period",
  changeInProgress:
    "A change to your subscription is already in progress. Please try again in a moment.",
  cardDeclined: "Your card was declined.",
  invalidCard: "Your card number is incomplete.",
  invalidExpiry: "Your card's expiration date is incomplete.",
  expiredCard: "Your card has expired.",
  invalidCvc: "Your card's security code is incomplete.",
  sessionNotFound: "Checkout session not found",
  sessionClosed: "This checkout session is no longer open",
  invalidSignature: "Invalid webhook signature",
  webhookNotConfigured: "Webhook signing secret is not configured",
  transactionNotFound: "Transaction not found",
  historyEventNotFound: "Subscription history record not found",
} as const;

/** The sandbox's test cards (docs/decisions/0016): the first succeeds, the second is declined. */
export const SANDBOX_CARDS = {
  success: "4242424242424242",
  declined: "4000000000000002",
} as const;

/**
 * Where checkout returns (under PUBLIC_URL). Stripe replaces {CHECKOUT_SESSION_ID}; the sandbox
 * does the same. The web app shows the result of the session on these pages.
 */
export const CHECKOUT_RETURN_PATHS = {
  packageSuccess: "/dashboard/credits?checkout=success&session_id={CHECKOUT_SESSION_ID}",
  packageCancel: "/dashboard/credits?checkout=canceled&session_id={CHECKOUT_SESSION_ID}",
  planSuccess: "/dashboard/credits?subscription=success&session_id={CHECKOUT_SESSION_ID}",
  planCancel: "/dashboard/credits?subscription=canceled&session_id={CHECKOUT_SESSION_ID}",
  /** The sandbox's hosted page (billing-web). */
  sandboxCheckout: "/checkout/sandbox/",
} as const;
