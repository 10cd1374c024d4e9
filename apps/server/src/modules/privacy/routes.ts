import { PRIVACY_MESSAGES, routes } from "@twinline/contracts";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { registerRoute } from "../../plugins/routes.ts";
import { type AuditActor, auditActorOf, writeAuditEntry } from "../audit/in-transaction.ts";
import { auditNote } from "../audit/plugin.ts";
import type { AuthService } from "../auth/service.ts";
import type { UsersRepository } from "../users/repository.ts";
import type { DataExportsService, ExportDownload } from "./service.ts";

/** "Delete account" (deletion.ts), bound to the other modules' ends of an account. */
export interface AccountDeletion {
  delete(userId: string, actor: AuditActor | null): Promise<void>;
}

interface PrivacyRoutesOptions {
  exports: DataExportsService;
  accountDeletion: AccountDeletion;
}

function sendZip(reply: FastifyReply, download: ExportDownload) {
  return reply
    .header("content-type", "application/zip")
    .header("content-disposition", `attachment; filename="${download.fileName}"`)
    .header("content-length", download.size)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(download.stream);
}

/** The fan's own "Download my data" and "Delete account" (issue 26; requireUser from access). */
export const privacyUserRoutes: FastifyPluginAsyncZod<
  PrivacyRoutesOptions & { auth: Pick<AuthService, "confirmIdentity"> }
> = async (app, { exports, accountDeletion, auth }) => {
  registerRoute(app, routes.privacy.latestExport, async (request) => ({
    success: true as const,
    data: await exports.latest(currentUser(request).id),
  }));

  registerRoute(app, routes.privacy.requestExport, async (request, reply) => {
    const { created, data } = await exports.request(currentUser(request).id, null);
    return reply.code(created ? 202 : 200).send({
      success: true as const,
      message: created ? PRIVACY_MESSAGES.exportQueued : PRIVACY_MESSAGES.exportInProgress,
      data,
    });
  });

  registerRoute(app, routes.privacy.downloadExport, async (request, reply) =>
    sendZip(
      reply,
      await exports.download(currentUser(request).id, request.params.id, app.uploads.privateFiles),
    ),
  );

  registerRoute(app, routes.privacy.deleteAccount, async (request, reply) => {
    const user = currentUser(request);
    await auth.confirmIdentity(user, request.body);
    await accountDeletion.delete(user.id, null);
    app.loginThrottle.forgetDevice(reply, user.email);
    return { success: true as const, message: PRIVACY_MESSAGES.deleted };
  });
};

/**
 * The admin's side, on a fan's request, from the user details (audit log); requireAdmin from
 * access, registered where the guarded scope stood so the OpenAPI order is kept.
 */
export const privacyAdminRoutes: FastifyPluginAsyncZod<
  PrivacyRoutesOptions & { users: Pick<UsersRepository, "findById"> }
> = async (app, { exports, accountDeletion, users }) => {
  registerRoute(app, routes.privacy.adminLatestExport, async (request) => ({
    success: true as const,
    data: await exports.latest(request.params.userId),
  }));

  registerRoute(app, routes.privacy.adminRequestExport, async (request, reply) => {
    const target = await users.findById(request.params.userId);
    if (target?.role !== "user") {
      throw new HttpError(404, PRIVACY_MESSAGES.userNotFound);
    }
    const admin = currentUser(request);
    const { created, data } = await exports.request(target.id, admin.id);
    auditNote(request, { targetId: target.id, after: data });
    return reply.code(created ? 202 : 200).send({
      success: true as const,
      message: created ? PRIVACY_MESSAGES.exportQueued : PRIVACY_MESSAGES.exportInProgress,
      data,
    });
  });

  registerRoute(app, routes.privacy.adminDownloadExport, async (request, reply) => {
    const { userId, id } = request.params;
    const download = await exports.download(userId, id, app.uploads.privateFiles);
    await writeAuditEntry(app.database.db, auditActorOf(request), {
      action: "user.data_export_download",
      targetType: "user",
      targetId: userId,
      after: { exportId: id },
    });
    return sendZip(reply, download);
  });

  registerRoute(app, routes.privacy.adminDeleteAccount, async (request) => {
    await accountDeletion.delete(request.params.userId, auditActorOf(request));
    auditNote(request, { recorded: true });
    return { success: true as const, message: PRIVACY_MESSAGES.adminDeleted };
  });
};
