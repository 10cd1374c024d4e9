import {
  type AdminCancelSubscriptionRequest,
  adminCreditAdjustmentResponseSchema,
  adminRefundResponseSchema,
  adminSubscriptionActionResponseSchema,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";

// The operator's money tools on a user (issue 16): each call carries a request id made when
// its dialog opened, so a double submit or a retry changes money once.

const userPath = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}`;

/** POST /api/admin/payments/{id}/refund; no amount refunds all that is left. */
export async function refundPayment(
  paymentId: string,
  input: { amount?: number; reason: string; requestId: string; endSubscription?: boolean },
) {
  return api.post(`/api/admin/payments/${encodeURIComponent(paymentId)}/refund`, input, {
    schema: adminRefundResponseSchema,
  });
}

/** POST /api/admin/users/{id}/credits. */
export async function adjustCredits(
  userId: string,
  input: { delta: number; reason: string; requestId: string },
) {
  return api.post(`${userPath(userId)}/credits`, input, {
    schema: adminCreditAdjustmentResponseSchema,
  });
}

/** POST /api/admin/users/{id}/subscription/cancel. */
export async function cancelSubscription(userId: string, input: AdminCancelSubscriptionRequest) {
  return api.post(`${userPath(userId)}/subscription/cancel`, input, {
    schema: adminSubscriptionActionResponseSchema,
  });
}

/** POST /api/admin/users/{id}/subscription/resume. */
export async function resumeSubscription(userId: string, input: { reason: string }) {
  return api.post(`${userPath(userId)}/subscription/resume`, input, {
    schema: adminSubscriptionActionResponseSchema,
  });
}
