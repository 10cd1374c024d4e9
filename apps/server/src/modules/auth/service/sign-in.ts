import { AUTH_MESSAGES } from "@twinline/contracts";
import { HttpError } from "../../../plugins/errors.ts";
import { syncAdminAccount } from "../admin-account.ts";
import { hashPassword } from "../passwords.ts";
import type { TokenClaims } from "../tokens.ts";
import {
  assertActive,
  assertOldEnough,
  checkCredentials,
  createAccount,
  session,
  signedIn,
} from "./accounts.ts";
import type { AuthDeps } from "./deps.ts";

/** `refusedBefore`: this browser was refused for its age already (auth/age-refusal.ts). */
export async function signup(
  deps: AuthDeps,
  input: { name: string; email: string; password: string; dateOfBirth: string },
  refusedBefore = false,
) {
  await assertOldEnough(deps, input.dateOfBirth, refusedBefore);
  if (await deps.users.findByEmail(input.email)) {
    throw new HttpError(409, AUTH_MESSAGES.emailTaken);
  }
  const user = await createAccount(deps, {
    name: input.name,
    email: input.email,
    passwordHash: await hashPassword(input.password),
    dateOfBirth: input.dateOfBirth,
  });
  return session(deps, user);
}

export async function login(deps: AuthDeps, input: { email: string; password: string }) {
  const user = await checkCredentials(deps, input.email, input.password);
  assertActive(user);
  return signedIn(deps, user);
}

export async function adminLogin(deps: AuthDeps, input: { email: string; password: string }) {
  const user = await checkCredentials(deps, input.email, input.password);
  // A user account gets the same answer as a wrong password.
  if (user.role !== "admin") throw new HttpError(401, AUTH_MESSAGES.invalidCredentials);
  assertActive(user);
  const updated = (await deps.users.recordLogin(user.id)) ?? user;
  return { user: updated, token: await deps.tokens.sign(updated) };
}

/** Ends this one token on the server, on every instance, until its own expiry. */
export async function logout(deps: Pick<AuthDeps, "endedTokens">, claims: TokenClaims) {
  await deps.endedTokens.end(claims.jti, new Date(claims.exp * 1000));
}

/** ADMIN_EMAIL/ADMIN_PASSWORD at boot; see syncAdminAccount. */
export function syncAdmin(
  deps: Pick<AuthDeps, "users">,
  input: { email: string; password: string; name?: string },
) {
  return syncAdminAccount(deps.users, input);
}
