import type {
  CheckoutSessionView,
  CreditPackage,
  CurrentSubscription,
  SubscriptionPlan,
  UserTransaction,
} from "@twinline/contracts";

/** Billing answers as the server sends them (contracts of packages/contracts/src/billing.ts). */

export function pkg(patch: Partial<CreditPackage> = {}): CreditPackage {
  return {
    _id: "p1",
    name: "Starter",
    description: "",
    credits: 100,
    price: 10,
    currency: "usd",
    discount: 0,
    discountedPrice: 10,
    isActive: true,
    stripeProductId: null,
    stripePriceId: null,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    ...patch,
  };
}

export function plan(patch: Partial<SubscriptionPlan> = {}): SubscriptionPlan {
  return {
    _id: "plan-basic",
    name: "Basic",
    description: "Unlimited messages",
    price: 9.99,
    currency: "usd",
    interval: "month",
    intervalCount: 1,
    features: ["Unlimited messages"],
    isActive: true,
    credits: 0,
    trialDays: 0,
    stripeProductId: null,
    stripePriceId: null,
    subscriberCount: 0,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    ...patch,
  };
}

export const noSubscription: CurrentSubscription = {
  _id: null,
  status: "inactive",
  providerStatus: null,
  plan: null,
  price: null,
  currency: null,
  startDate: null,
  endDate: null,
  autoRenew: false,
  cancelAtPeriodEnd: false,
  stripeSubscriptionId: null,
};

export function activeSubscription(
  on: SubscriptionPlan = plan(),
  patch: Partial<CurrentSubscription> = {},
): CurrentSubscription {
  return {
    _id: "sub-1",
    status: "active",
    providerStatus: "active",
    plan: {
      _id: on._id,
      name: on.name,
      price: on.price,
      currency: on.currency,
      interval: on.interval,
      intervalCount: on.intervalCount,
    },
    price: on.price,
    currency: on.currency,
    startDate: "2025-02-01T00:00:00.000Z",
    endDate: "2025-03-01T00:00:00.000Z",
    autoRenew: true,
    cancelAtPeriodEnd: false,
    stripeSubscriptionId: "sub_123",
    ...patch,
  };
}

export const subscriptionAnswer = (data: CurrentSubscription) => ({
  success: true as const,
  data,
  subscription: data,
});

export function transaction(patch: Partial<UserTransaction> = {}): UserTransaction {
  return {
    _id: "t1",
    kind: "credits",
    transactionDate: "2025-02-03T10:00:00.000Z",
    credits: 100,
    amount: 10,
    currency: "usd",
    status: "success",
    refundedAmount: 0,
    stripePaymentId: "pi_1",
    planName: null,
    metadata: { packageName: "Starter", invoiceNumber: null },
    ...patch,
  };
}

export function historyAnswer(rows: UserTransaction[], page = 1, limit = 5, total = rows.length) {
  return {
    success: true as const,
    data: rows,
    transactions: rows,
    pagination: { total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) },
  };
}

export function session(patch: Partial<CheckoutSessionView> = {}): CheckoutSessionView {
  return {
    sessionId: "cs_test_1",
    provider: "sandbox",
    mode: "payment",
    status: "open",
    paymentStatus: "unpaid",
    fulfilled: false,
    itemName: "Starter",
    description: "100 credits",
    amount: 9,
    amountBeforeDiscount: 9,
    discount: 0,
    promotionCode: null,
    currency: "usd",
    credits: 100,
    interval: null,
    intervalCount: null,
    email: "ada@example.com",
    successUrl: "/dashboard/credits?checkout=success&session_id=cs_test_1",
    cancelUrl: "/dashboard/credits?checkout=canceled&session_id=cs_test_1",
    createdAt: "2025-02-03T10:00:00.000Z",
    expiresAt: "2025-02-04T10:00:00.000Z",
    ...patch,
  };
}
