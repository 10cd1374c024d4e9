import { z } from "zod";
import { pagedListResponse, pageQueryFields } from "./paged-list";
import { queryDate } from "./query-dates";
import { singleLineText } from "./text";

// The audit log of admin writes (issue 16): GET /api/admin/audit-log and /admin/audit-log.

export const AUDIT_TARGET_TYPES = [
  "settings",
  "plan",
  "package",
  "promotion",
  "user",
  "payment",
  "subscription",
  "ai_training",
  "page",
  "admin",
  "message",
  "other",
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const auditEntrySchema = z.object({
  _id: z.string(),
  admin: z.object({ _id: z.string().nullable(), email: z.string() }),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  /** What a person calls the target (a user's e-mail, a plan's name), read when listed. */
  targetLabel: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string(),
  method: z.string(),
  path: z.string(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const filterText = (max: number) =>
  singleLineText()
    .transform((value) => value.trim())
    .pipe(z.string().max(max))
    .optional();

export const auditLogQuerySchema = z
  .object({
    ...pageQueryFields({ limit: 20, maxLimit: 100 }),
    /** The admin's id or (part of) e-mail. */
    admin: filterText(200),
    action: filterText(100),
    targetType: z.enum(["all", ...AUDIT_TARGET_TYPES]).default("all"),
    targetId: filterText(200),
    startDate: queryDate("Invalid start date").optional(),
    endDate: queryDate("Invalid end date").optional(),
  })
  .refine((query) => !query.startDate || !query.endDate || query.startDate <= query.endDate, {
    error: "The start date must not be after the end date",
    path: ["startDate"],
  });
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

export const auditLogResponseSchema = pagedListResponse(auditEntrySchema);
export type AuditLogResponse = z.infer<typeof auditLogResponseSchema>;
