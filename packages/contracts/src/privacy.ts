import { z } from "zod";

/** Issue 26: "Download my data" and "Delete account" (decisions 0062, 0063). */
export const PRIVACY_MESSAGES = {
  exportQueued: "Your data export is being prepared. We will e-mail you when it is ready.",
  exportInProgress: "Your data export is already being prepared.",
  exportRateLimited: "You can ask for your data 3 times a day. Please try again later.",
  exportNotFound: "Export not found",
  exportNotReady: "This export is not ready yet.",
  exportExpired: "This download has expired. Please ask for a new export.",
  deleteConfirmation: "Type DELETE to confirm",
  deletePasswordRequired: "Enter your password to delete your account",
  deleteWrongPassword: "The password is incorrect",
  deleteGoogleRequired: "Sign in with Google again to delete your account",
  deleteGoogleMismatch: "That Google account is not the one linked to this account",
  deleteProviderFailed:
    "Your subscription could not be canceled at the payment provider, so nothing was deleted. Please try again.",
  deleted: "Your account has been deleted.",
  adminDeleted: "Account deleted",
  adminCannotDeleteAdmin: "An admin account cannot be deleted here",
  userNotFound: "User not found",
} as const;

/** How many exports a fan may ask for in 24 hours (the admin's on request do not count). */
export const DATA_EXPORTS_PER_DAY = 3;
/** How long a ready export can be downloaded. */
export const DATA_EXPORT_DAYS = 7;
/** The word typed to confirm a deletion. */
export const DELETE_CONFIRMATION_WORD = "DELETE";

/** `expired`: past its `expiresAt`, the file deleted; the row stays for the rate limit's count. */
export const DATA_EXPORT_STATUSES = ["queued", "running", "ready", "failed", "expired"] as const;

/** One export of a fan's data, as the profile and the admin's user details show it. */
export const dataExportSchema = z.object({
  _id: z.string(),
  status: z.enum(DATA_EXPORT_STATUSES),
  /** Asked by an admin on the fan's request (false: by the fan). */
  requestedByAdmin: z.boolean(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Until when it can be downloaded (ready only). */
  expiresAt: z.string().nullable(),
  sizeBytes: z.number().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;

/** GET /api/users/data-export (and the admin's): the newest export, or null. */
export const dataExportResponseSchema = z.object({
  success: z.literal(true),
  data: dataExportSchema.nullable(),
});
export type DataExportResponse = z.infer<typeof dataExportResponseSchema>;

/** POST /api/users/data-export (and the admin's): the export asked (202). */
export const dataExportRequestedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: dataExportSchema,
});
export type DataExportRequestedResponse = z.infer<typeof dataExportRequestedResponseSchema>;

export const dataExportParamsSchema = z.object({ id: z.uuid({ error: "Invalid export id" }) });
export const adminUserDataExportParamsSchema = z.object({
  userId: z.uuid({ error: "Invalid user id" }),
  id: z.uuid({ error: "Invalid export id" }),
});

/**
 * POST /api/users/delete-account: the word DELETE, and the password (an account with one) or a
 * fresh Google ID token (an account signed in with Google only).
 */
export const deleteAccountRequestSchema = z.object({
  confirmation: z.literal(DELETE_CONFIRMATION_WORD, { error: PRIVACY_MESSAGES.deleteConfirmation }),
  password: z.string().max(200).optional(),
  googleToken: z.string().max(10_000).optional(),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

/** DELETE /api/admin/users/{userId}: the admin types DELETE too. */
export const adminDeleteUserRequestSchema = z.object({
  confirmation: z.literal(DELETE_CONFIRMATION_WORD, { error: PRIVACY_MESSAGES.deleteConfirmation }),
});
