import { AGE_MESSAGES, AUTH_MESSAGES, PRIVACY_MESSAGES, type User } from "@twinline/contracts";
import type { UserRow } from "../../../db/schema/index.ts";
import { ageRefusal } from "../../../lib/age-gate.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { toUser } from "../../users/mapper.ts";
import { subscriptionOf } from "../../users/subscription-state.ts";
import { verifyPassword } from "../passwords.ts";
import { setPassword } from "./accounts.ts";
import type { AuthDeps } from "./deps.ts";

export async function me(deps: Pick<AuthDeps, "db">, user: UserRow): Promise<User> {
  return toUser(user, await subscriptionOf(deps.db, user.id));
}

/**
 * PUT /api/users/date-of-birth: an account made before the age gate gives its date once.
 * It is stored even when under the minimum age (so another date cannot be tried), and then
 * the account is refused chat and calls like any other under age.
 */
export async function giveDateOfBirth(
  deps: Pick<AuthDeps, "db" | "settings" | "users">,
  user: UserRow,
  dateOfBirth: string,
): Promise<User> {
  const updated = await deps.users.setDateOfBirthOnce(user.id, dateOfBirth);
  if (!updated) throw new HttpError(409, AGE_MESSAGES.alreadyGiven);
  const refusal = ageRefusal(dateOfBirth, (await deps.settings.get()).minimumAge);
  if (refusal) throw refusal;
  return toUser(updated, await subscriptionOf(deps.db, updated.id));
}

export async function updateProfile(
  deps: Pick<AuthDeps, "db" | "users">,
  user: UserRow,
  name: string,
): Promise<User> {
  const updated = await deps.users.update(user.id, { name });
  if (!updated) throw new HttpError(404, "User not found");
  return toUser(updated, await subscriptionOf(deps.db, updated.id));
}

/**
 * PUT /api/users/password and PUT /api/admin/change-password: answers a fresh token (every
 * earlier one ends, the one of this session too).
 */
export async function changePassword(
  deps: Pick<AuthDeps, "tokens" | "users">,
  user: UserRow,
  input: { currentPassword: string; newPassword: string },
): Promise<string> {
  if (!user.passwordHash) throw new HttpError(400, AUTH_MESSAGES.googleOnlyAccount);
  // 400, never 401: a 401 makes the web client drop the session.
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new HttpError(400, AUTH_MESSAGES.wrongCurrentPassword);
  }
  const updated = await setPassword(deps, user, input.newPassword);
  return deps.tokens.sign(updated);
}

/**
 * The signed-in person again, before an act that cannot be undone (deleting the account):
 * the password of an account that has one, else a fresh Google sign-in of the linked
 * Google account. Refusals are 400, never 401 (a 401 signs the web client out).
 */
export async function confirmIdentity(
  deps: Pick<AuthDeps, "google">,
  user: UserRow,
  input: { password?: string | undefined; googleToken?: string | undefined },
): Promise<void> {
  if (user.passwordHash) {
    if (!input.password) {
      throw new HttpError(400, PRIVACY_MESSAGES.deletePasswordRequired, { field: "password" });
    }
    if (!(await verifyPassword(user.passwordHash, input.password))) {
      throw new HttpError(400, PRIVACY_MESSAGES.deleteWrongPassword, { field: "password" });
    }
    return;
  }
  if (!input.googleToken || !deps.google || !user.googleId) {
    throw new HttpError(400, PRIVACY_MESSAGES.deleteGoogleRequired, { field: "googleToken" });
  }
  let googleId: string;
  try {
    googleId = (await deps.google.verify(input.googleToken)).googleId;
  } catch {
    throw new HttpError(400, PRIVACY_MESSAGES.deleteGoogleRequired, { field: "googleToken" });
  }
  if (googleId !== user.googleId) {
    throw new HttpError(400, PRIVACY_MESSAGES.deleteGoogleMismatch, { field: "googleToken" });
  }
}
