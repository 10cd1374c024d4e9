import { routes } from "@twinline/contracts";
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { registerRoute } from "../../plugins/routes.ts";
import { auditActionOf, auditTargetId } from "./actions.ts";
import { auditActorOf, writeAuditEntry } from "./in-transaction.ts";
import { type AuditRepository, createAuditRepository } from "./repository.ts";

/** What a route tells the audit log beyond its answer (decision 0050, audit). */
export interface AuditNote {
  /** The target as it was before the write (masked when stored). */
  before?: unknown;
  /** The target after; default: the answer's `data`. */
  after?: unknown;
  /** The target's id when the route's parameters do not name it. */
  targetId?: string;
  /**
   * The route wrote its entry itself, in the transaction of its money change
   * (writeAuditEntry): the hook adds none.
   */
  recorded?: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The admin writes recorded (issue 16). */
    auditLog: AuditRepository;
  }
  interface FastifyRequest {
    /** Fed by an admin write's handler (auditNote()); read by the audit hook. */
    auditNote: AuditNote | null;
  }
}

/** An admin write's handler tells the audit log what it changed (before the write, usually). */
export function auditNote(request: FastifyRequest, note: AuditNote): void {
  request.auditNote = { ...request.auditNote, ...note };
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function answerData(payload: unknown): unknown {
  if (typeof payload !== "string") return null;
  try {
    const parsed = JSON.parse(payload) as { data?: unknown };
    return parsed?.data ?? null;
  } catch {
    return null;
  }
}

/**
 * The audit log (issue 16): ONE hook for the whole app records every successful admin write
 * (who, what, target, before and after, when, from which address) before the answer leaves;
 * the routes only feed `before` through auditNote(). Registered before the modules, so its hook
 * covers every route; its screen's route is auditLogRoutesModule. A write whose audit entry cannot be written fails loudly (500) rather
 * than go unrecorded. Money writes do better: they write their entry in their own transaction
 * (in-transaction.ts) and tell the hook so (`auditNote(request, { recorded: true })`).
 */
export const auditModule = fp(
  async (app: FastifyInstance) => {
    const repository = createAuditRepository(app.database.db);
    app.decorateRequest("auditNote", null);

    app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload) => {
      const user = request.user;
      if (user?.role !== "admin" || !WRITES.has(request.method)) return payload;
      if (reply.statusCode >= 400) return payload;
      const route = request.routeOptions.url;
      if (!route) return payload;
      const action = auditActionOf(request.method, route);
      if (!action) return payload;
      const note = request.auditNote ?? {};
      if (note.recorded) return payload;
      const answer = answerData(payload);
      const targetId =
        note.targetId ??
        auditTargetId(action, {
          params: (request.params ?? {}) as Record<string, unknown>,
          answer,
          before: note.before,
          adminId: user.id,
        });
      await writeAuditEntry(app.database.db, auditActorOf(request), {
        action: action.action,
        targetType: action.targetType,
        targetId,
        before: note.before,
        after: note.after ?? answer,
      });
      return payload;
    });

    app.decorate("auditLog", repository);
  },
  { name: "audit" },
);

/** GET /api/admin/audit-log: registered after the accounts module (its guard needs them). */
export const auditLogRoutesModule = fp(
  async (app: FastifyInstance) => {
    await app.register(auditRoutes, { repository: app.auditLog });
  },
  { name: "audit-routes", dependencies: ["audit", "accounts"] },
);

const auditRoutes: FastifyPluginAsync<{ repository: AuditRepository }> = async (
  app,
  { repository },
) => {
  registerRoute(app, routes.audit.list, async (request) => ({
    success: true as const,
    ...(await repository.list(request.query)),
  }));
};
