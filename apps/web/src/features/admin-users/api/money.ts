import { type AdminCancelSubscriptionRequest, routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api/route-client";

// The operator's money tools on a user (issue 16): each call carries a request id made when
// its dialog opened, so a double submit or a retry changes money once.

/** POST /api/admin/payments/{id}/refund; no amount refunds all that is left. */
export async function refundPayment(
  paymentId: string,
  input: { amount?: number; reason: string; requestId: string; endSubscription?: boolean },
) {
  return callRoute(routes.adminBilling.refundPayment, { params: { id: paymentId }, body: input });
}

/** POST /api/admin/users/{id}/credits. */
export async function adjustCredits(
  userId: string,
  input: { delta: number; reason: string; requestId: string },
) {
  return callRoute(routes.adminBilling.adjustCredits, { params: { userId }, body: input });
}

/** POST /api/admin/users/{id}/subscription/cancel. */
export async function cancelSubscription(userId: string, input: AdminCancelSubscriptionRequest) {
  return callRoute(routes.adminBilling.cancelSubscription, { params: { userId }, body: input });
}

/** POST /api/admin/users/{id}/subscription/resume. */
export async function resumeSubscription(userId: string, input: { reason: string }) {
  return callRoute(routes.adminBilling.resumeSubscription, { params: { userId }, body: input });
}
