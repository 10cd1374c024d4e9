import {
  adminDeleteUserRequestSchema,
  adminUserDataExportParamsSchema,
  dataExportParamsSchema,
  dataExportRequestedResponseSchema,
  dataExportResponseSchema,
  deleteAccountRequestSchema,
  messageResponseSchema,
  PRIVACY_MESSAGES,
} from "@twinline/contracts";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentUser } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { auditActorOf, writeAuditEntry } from "../audit/in-transaction.ts";
import { auditNote } from "../audit/plugin.ts";
import type { ExportDownload } from "./service.ts";

const errors = errorResponses(400, 401, 403, 404, 409, 410, 429, 502);
const userIdParams = z.object({ userId: z.uuid({ error: "Invalid user id" }) });

function sendZip(reply: FastifyReply, download: ExportDownload) {
  return reply
    .header("content-type", "application/zip")
    .header("content-disposition", `attachment; filename="${download.fileName}"`)
    .header("content-length", download.size)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(download.stream);
}

/** The fan's own "Download my data" and "Delete account" (issue 26). */
export const privacyUserRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["privacy"];
  const security = bearerSecurity;

  app.get(
    "/api/users/data-export",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security,
        summary: "The signed-in fan's newest data export and its state",
        response: { 200: dataExportResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.dataExports.latest(currentUser(request).id),
    }),
  );

  app.post(
    "/api/users/data-export",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security,
        summary:
          "Asks for a ZIP of all the fan's data, built in the background and announced by " +
          "e-mail (202); one already being built answers 200; 3 asks a day (429)",
        response: {
          200: dataExportRequestedResponseSchema,
          202: dataExportRequestedResponseSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { created, data } = await app.dataExports.request(currentUser(request).id, null);
      return reply.code(created ? 202 : 200).send({
        success: true as const,
        message: created ? PRIVACY_MESSAGES.exportQueued : PRIVACY_MESSAGES.exportInProgress,
        data,
      });
    },
  );

  app.get(
    "/api/users/data-export/:id/download",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security,
        summary: "Downloads a ready export (its owner only, for 7 days)",
        params: dataExportParamsSchema,
        response: { ...errors },
      },
    },
    async (request, reply) =>
      sendZip(
        reply,
        await app.dataExports.download(
          currentUser(request).id,
          request.params.id,
          app.uploads.privateFiles,
        ),
      ),
  );

  app.post(
    "/api/users/delete-account",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security,
        summary:
          "Deletes the signed-in fan's account for good, confirmed by the password (or a fresh " +
          "Google sign-in) and the word DELETE",
        body: deleteAccountRequestSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await app.auth.confirmIdentity(user, request.body);
      await app.accountDeletion.delete(user.id, null);
      app.loginThrottle.forgetDevice(reply, user.email);
      return { success: true as const, message: PRIVACY_MESSAGES.deleted };
    },
  );
};

/** The admin's side, on a fan's request, from the user details (audit log). */
export const privacyAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["admin"];
  const security = bearerSecurity;

  app.get(
    "/api/admin/users/:userId/data-export",
    {
      schema: {
        tags,
        security,
        summary: "A fan's newest data export and its state",
        params: userIdParams,
        response: { 200: dataExportResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.dataExports.latest(request.params.userId),
    }),
  );

  app.post(
    "/api/admin/users/:userId/data-export",
    {
      schema: {
        tags,
        security,
        summary: "Produces a fan's data export on their request (202; not rate-limited)",
        params: userIdParams,
        response: {
          200: dataExportRequestedResponseSchema,
          202: dataExportRequestedResponseSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const target = await app.users.findById(request.params.userId);
      if (target?.role !== "user") {
        throw new HttpError(404, PRIVACY_MESSAGES.userNotFound);
      }
      const admin = currentUser(request);
      const { created, data } = await app.dataExports.request(target.id, admin.id);
      auditNote(request, { targetId: target.id, after: data });
      return reply.code(created ? 202 : 200).send({
        success: true as const,
        message: created ? PRIVACY_MESSAGES.exportQueued : PRIVACY_MESSAGES.exportInProgress,
        data,
      });
    },
  );

  app.get(
    "/api/admin/users/:userId/data-export/:id/download",
    {
      schema: {
        tags,
        security,
        summary: "Downloads a fan's ready export, to hand it over (recorded in the audit log)",
        params: adminUserDataExportParamsSchema,
        response: { ...errors },
      },
    },
    async (request, reply) => {
      const { userId, id } = request.params;
      const download = await app.dataExports.download(userId, id, app.uploads.privateFiles);
      await writeAuditEntry(app.database.db, auditActorOf(request), {
        action: "user.data_export_download",
        targetType: "user",
        targetId: userId,
        after: { exportId: id },
      });
      return sendZip(reply, download);
    },
  );

  app.delete(
    "/api/admin/users/:userId",
    {
      schema: {
        tags,
        security,
        summary:
          "Deletes a fan's account on their request (as the fan's own deletion; the audit " +
          "entry is written with it)",
        params: userIdParams,
        body: adminDeleteUserRequestSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      await app.accountDeletion.delete(request.params.userId, auditActorOf(request));
      auditNote(request, { recorded: true });
      return { success: true as const, message: PRIVACY_MESSAGES.adminDeleted };
    },
  );
};
