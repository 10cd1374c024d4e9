import type { AuditTargetType } from "@twinline/contracts";

export interface AuditAction {
  action: string;
  targetType: AuditTargetType;
  /** The route parameter that names the target. */
  targetParam?: string;
}

/**
 * Every admin write and its name in the audit log, by `METHOD route`. Key tests are reads (they
 * change nothing) and logout ends only the admin's own token: neither is listed. A write under
 * the admin prefix missing here is still recorded, under its method and route.
 */
export const AUDITED_ROUTES: Record<string, AuditAction> = {
  "PUT /api/settings": { action: "settings.update", targetType: "settings" },
  "POST /api/settings/upload": { action: "settings.upload_image", targetType: "settings" },
  "DELETE /api/settings/image/:kind": {
    action: "settings.delete_image",
    targetType: "settings",
    targetParam: "kind",
  },
  "POST /api/subscriptions": { action: "plan.create", targetType: "plan" },
  "PUT /api/subscriptions/:id": { action: "plan.update", targetType: "plan", targetParam: "id" },
  "PATCH /api/subscriptions/:id/toggle-status": {
    action: "plan.toggle_status",
    targetType: "plan",
    targetParam: "id",
  },
  "DELETE /api/subscriptions/:id": {
    action: "plan.delete",
    targetType: "plan",
    targetParam: "id",
  },
  "POST /api/subscriptions/sync-stripe": { action: "plan.sync_stripe", targetType: "plan" },
  "POST /api/credit-packages": { action: "package.create", targetType: "package" },
  "PUT /api/credit-packages/:id": {
    action: "package.update",
    targetType: "package",
    targetParam: "id",
  },
  "PATCH /api/credit-packages/:id/toggle-status": {
    action: "package.toggle_status",
    targetType: "package",
    targetParam: "id",
  },
  "DELETE /api/credit-packages/:id": {
    action: "package.delete",
    targetType: "package",
    targetParam: "id",
  },
  "POST /api/credit-packages/sync-stripe": {
    action: "package.sync_stripe",
    targetType: "package",
  },
  "PUT /api/admin/users/:userId/status": {
    action: "user.status",
    targetType: "user",
    targetParam: "userId",
  },
  "PUT /api/admin/users/:userId/date-of-birth": {
    action: "user.date_of_birth",
    targetType: "user",
    targetParam: "userId",
  },
  "POST /api/admin/users/:userId/credits": {
    action: "user.credits_adjust",
    targetType: "user",
    targetParam: "userId",
  },
  "POST /api/admin/users/:userId/subscription/cancel": {
    action: "subscription.cancel",
    targetType: "subscription",
    targetParam: "userId",
  },
  "POST /api/admin/users/:userId/subscription/resume": {
    action: "subscription.resume",
    targetType: "subscription",
    targetParam: "userId",
  },
  "POST /api/admin/payments/:id/refund": {
    action: "payment.refund",
    targetType: "payment",
    targetParam: "id",
  },
  "PUT /api/admin/change-password": { action: "admin.change_password", targetType: "admin" },
  "PUT /api/ai-training/system-prompt": {
    action: "ai_training.system_prompt",
    targetType: "ai_training",
  },
  "POST /api/ai-training/knowledge-documents": {
    action: "ai_training.document_upload",
    targetType: "ai_training",
  },
  "DELETE /api/ai-training/knowledge-documents/:id": {
    action: "ai_training.document_delete",
    targetType: "ai_training",
    targetParam: "id",
  },
  "POST /api/ai-training/voice-sample": {
    action: "ai_training.voice_sample",
    targetType: "ai_training",
  },
  "PUT /api/ai-training/voice-id": { action: "ai_training.voice_id", targetType: "ai_training" },
  "POST /api/ai-training/generate-voice-clone": {
    action: "ai_training.voice_clone",
    targetType: "ai_training",
  },
};

/** Admin writes outside AUDITED_ROUTES that are not writes of the operator's data. */
const NOT_AUDITED = new Set([
  "POST /api/admin/login",
  "POST /api/admin/logout",
  "POST /api/settings/test-openai",
  "POST /api/settings/test-stripe",
  "POST /api/settings/test-elevenlabs",
]);

/** What the audit log calls a request, or null when it is not an audited admin write. */
export function auditActionOf(method: string, route: string): AuditAction | null {
  const key = `${method} ${route}`;
  const known = AUDITED_ROUTES[key];
  if (known) return known;
  if (NOT_AUDITED.has(key) || !route.startsWith("/api/admin/")) return null;
  return { action: key, targetType: "other" };
}
