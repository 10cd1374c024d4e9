import type { AuditEntry, AuditLogQuery } from "@twinline/contracts";
import { and, count, desc, eq, ilike, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { type AdminAuditLogRow, adminAuditLog } from "../../db/schema/index.ts";
import { dateRange } from "../../lib/date-range.ts";
import { pageOffset, pagination } from "../../lib/paging.ts";
import { containsPattern, isUuid, startsWithPattern } from "../../lib/search.ts";
import { readTargetLabels } from "./target-labels.ts";

function toEntry(row: AdminAuditLogRow, targetLabel: string | null): AuditEntry {
  return {
    _id: row.id,
    admin: { _id: row.adminId, email: row.adminEmail },
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    targetLabel,
    before: row.before ?? null,
    after: row.after ?? null,
    ip: row.ip,
    method: row.method,
    path: row.path,
    createdAt: row.createdAt.toISOString(),
  };
}

export function createAuditRepository(db: Database) {
  return {
    /**
     * Newest first; filters by admin (id or part of the e-mail), action, target and dates. Each
     * target is labelled as an operator knows it (target-labels.ts).
     */
    async list(query: AuditLogQuery) {
      const conditions: SQL[] = [
        ...dateRange(adminAuditLog.createdAt, query.startDate, query.endDate),
      ];
      if (query.admin) {
        conditions.push(
          isUuid(query.admin)
            ? eq(adminAuditLog.adminId, query.admin)
            : ilike(adminAuditLog.adminEmail, containsPattern(query.admin)),
        );
      }
      if (query.action) {
        conditions.push(ilike(adminAuditLog.action, startsWithPattern(query.action)));
      }
      if (query.targetType !== "all")
        conditions.push(eq(adminAuditLog.targetType, query.targetType));
      if (query.targetId) conditions.push(eq(adminAuditLog.targetId, query.targetId));
      const where = conditions.length > 0 ? and(...conditions) : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(adminAuditLog)
          .where(where)
          .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
          .limit(query.limit)
          .offset(pageOffset(query)),
        db.select({ n: count() }).from(adminAuditLog).where(where),
      ]);
      const labels = await readTargetLabels(db, rows);
      return {
        data: rows.map((row, i) => toEntry(row, labels[i] ?? null)),
        pagination: pagination(total?.n ?? 0, query),
      };
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
