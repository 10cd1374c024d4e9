import { ADMIN_API_PREFIX, type AuditTargetType, routeKey, routes } from "@twinline/contracts";

/** What the audit hook knows of a write when it names the write's target. */
export interface AuditTargetSources {
  params: Record<string, unknown>;
  /** The answer's `data`. */
  answer: unknown;
  /** The `before` the route fed through auditNote(). */
  before: unknown;
  adminId: string;
}

export interface AuditAction {
  action: string;
  targetType: AuditTargetType;
  /** The target's id, read from the request and its answer (none: the write has no one target). */
  target?: (sources: AuditTargetSources) => unknown;
}

/** The value at `path` in `value` (an answer or a `before`), or undefined. */
function at(value: unknown, path: readonly string[]): unknown {
  let here = value;
  for (const key of path) {
    if (!here || typeof here !== "object") return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** The target is named by the route's parameter `name`. */
const param =
  (name: string) =>
  ({ params }: AuditTargetSources) =>
    params[name];

/** A create: the target is what was made, the answer's `_id`. */
const created = ({ answer }: AuditTargetSources) => at(answer, ["_id"]);

/**
 * The user's subscription the admin acted on (the route names the user, not it): the answer's,
 * or the one it was before (a subscription ended now is no longer the user's current one).
 */
const actedOnSubscription = ({ answer, before }: AuditTargetSources) =>
  at(answer, ["subscription", "_id"]) ?? at(before, ["subscription", "_id"]);

/**
 * Every admin write and its name in the audit log, by `METHOD route`. Key tests are reads (they
 * change nothing) and logout ends only the admin's own token: neither is listed. A write under
 * the admin prefix missing here is still recorded, under its method and route. Each is keyed by
 * its definition in the route table (routeKey, decision 0086).
 */
export const AUDITED_ROUTES: Record<string, AuditAction> = {
  [routeKey(routes.settings.save)]: { action: "settings.update", targetType: "settings" },
  [routeKey(routes.settings.uploadImage)]: {
    action: "settings.upload_image",
    targetType: "settings",
  },
  [routeKey(routes.settings.removeImage)]: {
    action: "settings.delete_image",
    targetType: "settings",
    target: param("kind"),
  },
  [routeKey(routes.adminBilling.createPlan)]: {
    action: "plan.create",
    targetType: "plan",
    target: created,
  },
  [routeKey(routes.adminBilling.updatePlan)]: {
    action: "plan.update",
    targetType: "plan",
    target: param("id"),
  },
  [routeKey(routes.adminBilling.togglePlan)]: {
    action: "plan.toggle_status",
    targetType: "plan",
    target: param("id"),
  },
  [routeKey(routes.adminBilling.deletePlan)]: {
    action: "plan.delete",
    targetType: "plan",
    target: param("id"),
  },
  [routeKey(routes.adminBilling.syncPlans)]: { action: "plan.sync_stripe", targetType: "plan" },
  [routeKey(routes.adminBilling.createPackage)]: {
    action: "package.create",
    targetType: "package",
    target: created,
  },
  [routeKey(routes.adminBilling.updatePackage)]: {
    action: "package.update",
    targetType: "package",
    target: param("id"),
  },
  [routeKey(routes.adminBilling.togglePackage)]: {
    action: "package.toggle_status",
    targetType: "package",
    target: param("id"),
  },
  [routeKey(routes.adminBilling.deletePackage)]: {
    action: "package.delete",
    targetType: "package",
    target: param("id"),
  },
  [routeKey(routes.adminBilling.syncPackages)]: {
    action: "package.sync_stripe",
    targetType: "package",
  },
  [routeKey(routes.adminUsers.status)]: {
    action: "user.status",
    targetType: "user",
    target: param("userId"),
  },
  [routeKey(routes.adminUsers.dateOfBirth)]: {
    action: "user.date_of_birth",
    targetType: "user",
    target: param("userId"),
  },
  [routeKey(routes.adminBilling.adjustCredits)]: {
    action: "user.credits_adjust",
    targetType: "user",
    target: param("userId"),
  },
  [routeKey(routes.privacy.adminRequestExport)]: {
    action: "user.data_export",
    targetType: "user",
    target: param("userId"),
  },
  [routeKey(routes.privacy.adminDeleteAccount)]: {
    action: "user.delete",
    targetType: "user",
    target: param("userId"),
  },
  [routeKey(routes.adminBilling.cancelSubscription)]: {
    action: "subscription.cancel",
    targetType: "subscription",
    target: actedOnSubscription,
  },
  [routeKey(routes.adminBilling.resumeSubscription)]: {
    action: "subscription.resume",
    targetType: "subscription",
    target: actedOnSubscription,
  },
  [routeKey(routes.jobs.retry)]: {
    action: "job.retry",
    targetType: "other",
    target: param("id"),
  },
  [routeKey(routes.adminBilling.refundPayment)]: {
    action: "payment.refund",
    targetType: "payment",
    target: param("id"),
  },
  [routeKey(routes.adminSession.changePassword)]: {
    action: "admin.change_password",
    targetType: "admin",
    target: ({ adminId }) => adminId,
  },
  [routeKey(routes.sitePages.adminSave)]: {
    action: "page.update",
    targetType: "page",
    target: param("slug"),
  },
  [routeKey(routes.aiTraining.systemPrompt)]: {
    action: "ai_training.system_prompt",
    targetType: "ai_training",
  },
  [routeKey(routes.aiTraining.uploadDocument)]: {
    action: "ai_training.document_upload",
    targetType: "ai_training",
    target: created,
  },
  [routeKey(routes.aiTraining.deleteDocument)]: {
    action: "ai_training.document_delete",
    targetType: "ai_training",
    target: param("id"),
  },
  [routeKey(routes.aiTraining.uploadVoiceSample)]: {
    action: "ai_training.voice_sample",
    targetType: "ai_training",
  },
  [routeKey(routes.aiTraining.voiceId)]: {
    action: "ai_training.voice_id",
    targetType: "ai_training",
  },
  [routeKey(routes.aiTraining.generateVoiceClone)]: {
    action: "ai_training.voice_clone",
    targetType: "ai_training",
  },
};

/** Admin writes outside AUDITED_ROUTES that are not writes of the operator's data. */
const NOT_AUDITED = new Set(
  [
    routes.adminSession.login,
    routes.adminSession.logout,
    routes.settings.testOpenAi,
    routes.settings.testStripe,
    routes.settings.testElevenLabs,
  ].map(routeKey),
);

/** What the audit log calls a request, or null when it is not an audited admin write. */
export function auditActionOf(method: string, route: string): AuditAction | null {
  const key = `${method} ${route}`;
  const known = AUDITED_ROUTES[key];
  if (known) return known;
  if (NOT_AUDITED.has(key) || !route.startsWith(`${ADMIN_API_PREFIX}/`)) return null;
  return { action: key, targetType: "other" };
}

/** The id of the write's target as the log keeps it (text), or null when it has none. */
export function auditTargetId(action: AuditAction, sources: AuditTargetSources): string | null {
  const id = action.target?.(sources);
  return typeof id === "string" && id !== "" ? id : null;
}
