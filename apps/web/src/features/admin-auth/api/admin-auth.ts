import { type Admin, routes } from "@twinline/contracts";
import { ApiError, callRoute, errorMessage, getCsrfToken } from "@/lib/api-client";
import { storeAdminSession } from "./session";

/** Error texts of the admin login (admin-side spec, section 8), spelled exactly. */
export const ADMIN_LOGIN_ERRORS = {
  csrfInit: "Failed to initialize security token. Please try refreshing the page",
  csrfToken: "Security token error. Please refresh the page and try again",
  csrfRefresh: "Failed to refresh security token. Please reload the page and try again",
  afterRefresh: "Login failed after token refresh. Please try again.",
  generic: "Login failed. Please try again.",
} as const;

export const CHANGE_PASSWORD_FAILED = "Failed to change password";

/** A login failure with the text to show. */
export class AdminLoginError extends Error {
  override readonly name = "AdminLoginError";
}

function mentionsCsrf(message: string): boolean {
  return /csrf|security token/i.test(message);
}

/**
 * POST /api/admin/login. A CSRF token is fetched first; the client refreshes it and retries once
 * on a CSRF 403, and what still fails is told apart here.
 * @throws AdminLoginError with the message to show
 */
export async function loginAdmin(credentials: {
  email: string;
  password: string;
}): Promise<{ token: string; admin: Admin }> {
  if (!(await getCsrfToken())) throw new AdminLoginError(ADMIN_LOGIN_ERRORS.csrfInit);
  try {
    const answer = await callRoute(routes.adminSession.login, { body: credentials });
    return { token: answer.token, admin: answer.admin };
  } catch (error) {
    throw new AdminLoginError(await loginErrorMessage(error));
  }
}

async function loginErrorMessage(error: unknown): Promise<string> {
  if (!(error instanceof ApiError) || error.kind !== "http") return ADMIN_LOGIN_ERRORS.generic;
  if (error.status === 403 && mentionsCsrf(error.message)) {
    // The client already refreshed the token and retried once.
    const fresh = await getCsrfToken();
    return fresh ? ADMIN_LOGIN_ERRORS.afterRefresh : ADMIN_LOGIN_ERRORS.csrfRefresh;
  }
  if (mentionsCsrf(error.message)) return ADMIN_LOGIN_ERRORS.csrfToken;
  // The server's own words for what the admin can act on (wrong credentials, deactivated,
  // rate limited, bad input); anything else gets the spec's generic text.
  if (error.status >= 400 && error.status < 500) {
    return errorMessage(error, ADMIN_LOGIN_ERRORS.generic);
  }
  return ADMIN_LOGIN_ERRORS.generic;
}

/** The guard's verdict on a stored token. */
export type VerifyResult = { valid: true; admin: Admin } | { valid: false };

/**
 * GET /api/admin/verify-token. A 401 or `valid: false` means invalid; other failures (network,
 * 5xx) are thrown, so the guard can offer a retry instead of logging the admin out.
 */
export async function verifyAdminToken(signal?: AbortSignal): Promise<VerifyResult> {
  try {
    const answer = await callRoute(routes.adminSession.verifyToken, { signal });
    return answer.valid ? { valid: true, admin: answer.admin } : { valid: false };
  } catch (error) {
    if (
      error instanceof ApiError &&
      (error.status === 401 || error.status === 403 || error.kind === "invalid-response")
    ) {
      return { valid: false };
    }
    throw error;
  }
}

/**
 * PUT /api/admin/change-password; resolves to the server's message. The change ends every earlier
 * token, so the fresh one in the answer replaces the stored one and the admin stays signed in.
 */
export async function changeAdminPassword(input: {
  currentPassword: string;
  newPassword: string;
}): Promise<string> {
  const answer = await callRoute(routes.adminSession.changePassword, { body: input });
  storeAdminSession(answer.token);
  return answer.message || "Password changed successfully";
}
