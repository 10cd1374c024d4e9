import { z } from "zod";
import { messageResponseSchema } from "../auth";
import {
  adminDeleteUserRequestSchema,
  adminUserDataExportParamsSchema,
  dataExportParamsSchema,
  dataExportRequestedResponseSchema,
  dataExportResponseSchema,
  deleteAccountRequestSchema,
} from "../privacy";
import { defineRoute } from "./define";
import { fileAnswerSchema } from "./files";

const errors = [400, 401, 403, 404, 409, 410, 429, 502];
const userIdParams = z.object({ userId: z.uuid({ error: "Invalid user id" }) });

/**
 * "Download my data" and "Delete account" (issue 26; apps/server/src/modules/privacy): the fan's
 * own, and the admin's on a fan's request from the user details (audit log).
 */
export const privacyRoutes = {
  latestExport: defineRoute({
    method: "GET",
    path: "/api/users/data-export",
    access: "fan",
    tags: ["privacy"],
    summary: "The signed-in fan's newest data export and its state",
    response: dataExportResponseSchema,
    errors,
  }),
  requestExport: defineRoute({
    method: "POST",
    path: "/api/users/data-export",
    access: "fan",
    tags: ["privacy"],
    summary:
      "Asks for a ZIP of all the fan's data, built in the background and announced by " +
      "e-mail (202); one already being built answers 200; 3 asks a day (429)",
    response: dataExportRequestedResponseSchema,
    otherResponses: { 202: dataExportRequestedResponseSchema },
    errors,
  }),
  downloadExport: defineRoute({
    method: "GET",
    path: "/api/users/data-export/:id/download",
    access: "fan",
    kind: "file",
    tags: ["privacy"],
    summary: "Downloads a ready export (its owner only, for 7 days)",
    params: dataExportParamsSchema,
    response: fileAnswerSchema,
    errors,
  }),
  deleteAccount: defineRoute({
    method: "POST",
    path: "/api/users/delete-account",
    access: "fan",
    tags: ["privacy"],
    summary:
      "Deletes the signed-in fan's account for good, confirmed by the password (or a fresh " +
      "Google sign-in) and the word DELETE",
    body: deleteAccountRequestSchema,
    response: messageResponseSchema,
    errors,
  }),
  adminLatestExport: defineRoute({
    method: "GET",
    path: "/api/admin/users/:userId/data-export",
    access: "admin",
    tags: ["admin"],
    summary: "A fan's newest data export and its state",
    params: userIdParams,
    response: dataExportResponseSchema,
    errors,
  }),
  adminRequestExport: defineRoute({
    method: "POST",
    path: "/api/admin/users/:userId/data-export",
    access: "admin",
    tags: ["admin"],
    summary: "Produces a fan's data export on their request (202; not rate-limited)",
    params: userIdParams,
    response: dataExportRequestedResponseSchema,
    otherResponses: { 202: dataExportRequestedResponseSchema },
    errors,
  }),
  adminDownloadExport: defineRoute({
    method: "GET",
    path: "/api/admin/users/:userId/data-export/:id/download",
    access: "admin",
    kind: "file",
    tags: ["admin"],
    summary: "Downloads a fan's ready export, to hand it over (recorded in the audit log)",
    params: adminUserDataExportParamsSchema,
    response: fileAnswerSchema,
    errors,
  }),
  adminDeleteAccount: defineRoute({
    method: "DELETE",
    path: "/api/admin/users/:userId",
    access: "admin",
    tags: ["admin"],
    summary:
      "Deletes a fan's account on their request (as the fan's own deletion; the audit " +
      "entry is written with it)",
    params: userIdParams,
    body: adminDeleteUserRequestSchema,
    response: messageResponseSchema,
    errors,
  }),
} as const;
