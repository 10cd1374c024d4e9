import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  BILLING_DEFAULTS,
  type CheckPromotionCodeResponse,
  CONSENT_VERSIONS,
  routes,
  type SandboxPayRequest,
} from "@twinline/contracts";
import { callRoute } from "@/lib/api/route-client";
import { ApiError } from "@/lib/api-client";

/** Page sizes: 5 on the credits screen, 10 on the transactions screen (user-side spec, section 9). */
export const CREDITS_HISTORY_PAGE_SIZE = BILLING_DEFAULTS.creditsPageHistoryLimit;
export const TRANSACTIONS_PAGE_SIZE = BILLING_DEFAULTS.transactionsPageLimit;

export const billingKeys = {
  all: ["billing"] as const,
  balance: ["billing", "balance"] as const,
  packages: ["billing", "packages"] as const,
  plans: ["billing", "plans"] as const,
  subscription: ["billing", "subscription"] as const,
};

/** GET /api/users/credit-balance. */
export const creditBalanceQuery = () =>
  queryOptions({
    queryKey: billingKeys.balance,
    queryFn: async ({ signal }) =>
      (await callRoute(routes.billing.creditBalance, { signal })).available,
  });

/** GET /api/credit-packages: only the active ones, sorted by credits ascending. */
export const creditPackagesQuery = () =>
  queryOptions({
    queryKey: billingKeys.packages,
    queryFn: async ({ signal }) => {
      const body = await callRoute(routes.billing.packages, { signal });
      return body.packages.filter((p) => p.isActive).sort((a, b) => a.credits - b.credits);
    },
  });

export type HistoryKind = "credits" | "subscriptions";

/**
 * The user's payments, one page: credit purchases (GET /api/payments/history) or subscription
 * payments (GET /api/payments/subscription-history).
 */
export const paymentHistoryQuery = (kind: HistoryKind, page: number, limit: number) =>
  queryOptions({
    queryKey: ["billing", "history", kind, page, limit] as const,
    queryFn: ({ signal }) =>
      callRoute(
        kind === "credits"
          ? routes.billing.paymentHistory
          : routes.billing.subscriptionPaymentHistory,
        { signal, query: { page, limit } },
      ),
    placeholderData: keepPreviousData,
  });

/** The user's credit movements, one page (GET /api/users/credit-history). */
export const creditHistoryQuery = (page: number, limit: number) =>
  queryOptions({
    queryKey: ["billing", "credit-history", page, limit] as const,
    queryFn: ({ signal }) =>
      callRoute(routes.billing.creditHistory, { signal, query: { page, limit } }),
    placeholderData: keepPreviousData,
  });

/** GET /api/subscriptions/active-plans. */
export const activePlansQuery = () =>
  queryOptions({
    queryKey: billingKeys.plans,
    queryFn: async ({ signal }) => (await callRoute(routes.billing.activePlans, { signal })).data,
  });

/** GET /api/subscriptions/my-subscription ("inactive" with no plan when there is none). */
export const mySubscriptionQuery = () =>
  queryOptions({
    queryKey: billingKeys.subscription,
    queryFn: async ({ signal }) =>
      (await callRoute(routes.billing.mySubscription, { signal })).data,
  });

/**
 * POST /api/payments/create-checkout-session {packageId, consentVersion}: the hosted checkout's
 * address. Called only once the fan ticked the delivery consent of this version.
 */
export async function createPackageCheckout({
  packageId,
  promotionCode,
}: {
  packageId: string;
  promotionCode?: string | null;
}): Promise<string> {
  const body = await callRoute(routes.billing.packageCheckout, {
    body: {
      packageId,
      consentVersion: CONSENT_VERSIONS.credits,
      ...(promotionCode ? { promotionCode } : {}),
    },
  });
  return body.url;
}

/**
 * POST /api/subscriptions/create-checkout {planId, consentVersion}: the hosted checkout's
 * address. Called only once the fan ticked the renewal terms of this version.
 */
export async function createSubscriptionCheckout(
  planId: string,
  promotionCode?: string | null,
): Promise<string> {
  const body = await callRoute(routes.billing.planCheckout, {
    body: {
      planId,
      consentVersion: CONSENT_VERSIONS.plan,
      ...(promotionCode ? { promotionCode } : {}),
    },
  });
  return body.url;
}

/** POST /api/subscriptions/upgrade {planId}: the plan change result. */
export function changePlan(planId: string) {
  return callRoute(routes.billing.upgrade, { body: { planId } });
}

/** POST /api/subscriptions/cancel: stops renewal at the period end. */
export function cancelSubscription() {
  return callRoute(routes.billing.cancel);
}

/** POST /api/subscriptions/resume: a plan set to cancel renews again. */
export function resumeSubscription() {
  return callRoute(routes.billing.resume);
}

/** GET /api/payments/{id}/withdrawal: step 1 of a withdrawal, what it would do. */
export const withdrawalQuoteQuery = (paymentId: string) =>
  queryOptions({
    queryKey: ["billing", "withdrawal", paymentId] as const,
    queryFn: async ({ signal }) =>
      (await callRoute(routes.billing.withdrawalQuote, { params: { id: paymentId }, signal })).data,
    retry: false,
    staleTime: 0,
  });

/** POST /api/payments/{id}/withdrawal {confirm: true}: step 2, withdraws once. */
export function withdrawFromPurchase(paymentId: string) {
  return callRoute(routes.billing.withdraw, { params: { id: paymentId }, body: { confirm: true } });
}

/**
 * The package checkout's failure message (user-side spec, section 8): 404, 401 and network
 * failures have their own; otherwise the server's message, else "Failed to initiate checkout".
 */
export function checkoutErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === "network")
      return "Network error. Please check your connection and try again";
    if (error.status === 404) return "Package not found or endpoint not available";
    if (error.status === 401) return "Authentication error. Please log in again";
    if (error.kind === "http") {
      const body = error.body as { message?: unknown; error?: unknown } | null;
      const message = typeof body?.message === "string" ? body.message : null;
      if (message) return message;
    }
  }
  return "Failed to initiate checkout";
}

/** Leaves the app for the hosted checkout (a seam for tests). */
export const redirectTo = {
  go(url: string) {
    window.location.assign(url);
  },
};

/** GET /api/payments/checkout-sessions/:id: one checkout and whether it is fulfilled (return page). */
export const checkoutSessionQuery = (sessionId: string) =>
  queryOptions({
    queryKey: ["billing", "checkout-session", sessionId] as const,
    queryFn: async ({ signal }) =>
      (await callRoute(routes.billing.checkoutSession, { params: { id: sessionId }, signal })).data,
  });

/** GET /api/payments/sandbox/sessions/:id: what the sandbox checkout sells. */
export const sandboxSessionQuery = (sessionId: string) =>
  queryOptions({
    queryKey: ["billing", "sandbox-session", sessionId] as const,
    queryFn: async ({ signal }) =>
      (await callRoute(routes.billing.sandboxSession, { params: { id: sessionId }, signal })).data,
  });

/** POST /api/payments/sandbox/sessions/:id/pay: the success page's address, or a decline. */
export async function paySandboxSession(sessionId: string, card: SandboxPayRequest) {
  const body = await callRoute(routes.billing.sandboxPay, {
    params: { id: sessionId },
    body: card,
  });
  return body.redirectUrl;
}

/** POST /api/payments/sandbox/sessions/:id/cancel: the cancel page's address. */
export async function cancelSandboxSession(sessionId: string) {
  const body = await callRoute(routes.billing.sandboxCancel, { params: { id: sessionId } });
  return body.redirectUrl;
}

/** A promotion code's effect on a purchase, before paying. */
export type PromotionQuote = CheckPromotionCodeResponse["data"];

/**
 * POST /api/payments/promotion-codes/check: what the code makes of the package's or plan's
 * price; a code that does not apply answers 400 with the reason (shown under the field).
 */
export async function checkPromotionCode(
  code: string,
  target: { packageId: string } | { planId: string },
): Promise<PromotionQuote> {
  const body = await callRoute(routes.promotions.check, { body: { code, ...target } });
  return body.data;
}
