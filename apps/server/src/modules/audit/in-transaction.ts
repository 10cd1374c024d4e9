import type { FastifyRequest } from "fastify";
import type { Database } from "../../db/client.ts";
import { adminAuditLog } from "../../db/schema/index.ts";
import { auditValue } from "./mask.ts";

/**
 * Who made a money change, as the audit log records it. Kept with a refund claim (its metadata),
 * so the entry is the same whichever of the request, the webhook or the sweep settles it.
 */
export interface AuditActor {
  /** Null for a change no admin made (a dispute, a refund in Stripe's dashboard). */
  adminId: string | null;
  adminEmail: string;
  ip: string;
  method: string;
  path: string;
}

/** What was changed: the action, its target, the target before and after. */
export interface AuditChange {
  action: string;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
}

/** The admin making this request (the route is admin-guarded). */
export function auditActorOf(request: FastifyRequest): AuditActor {
  const user = request.user;
  if (!user) throw new Error("An audited money write needs the admin's session");
  return {
    adminId: user.id,
    adminEmail: user.email,
    ip: request.ip,
    method: request.method,
    path: request.url.split("?")[0] ?? request.url,
  };
}

/** A change made by the system on its own (provider events, automatic refunds). */
export function systemActor(origin: string): AuditActor {
  return { adminId: null, adminEmail: "system", ip: "", method: "SYSTEM", path: origin };
}

/**
 * Writes one audit entry in the caller's transaction (DESIGN.md, money rules: every change of
 * money writes its audit row in the same transaction as the change, sweeps too). If it cannot
 * be written, the change is rolled back with it; if the change rolls back, so does the entry.
 */
export async function writeAuditEntry(
  tx: Database,
  actor: AuditActor,
  change: AuditChange,
): Promise<void> {
  await tx.insert(adminAuditLog).values({
    ...actor,
    action: change.action,
    targetType: change.targetType,
    targetId: change.targetId,
    before: auditValue(change.before ?? null),
    after: auditValue(change.after ?? null),
  });
}
