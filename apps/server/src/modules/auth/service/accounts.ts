import { AGE_MESSAGES, AUTH_MESSAGES, UNDER_AGE_CODE, type User } from "@twinline/contracts";
import type { Database } from "../../../db/client.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import { isUnderAge } from "../../../lib/age-gate.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { applyCreditMovement } from "../../credits/ledger.ts";
import { toUser } from "../../users/mapper.ts";
import { subscriptionOf } from "../../users/subscription-state.ts";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "../passwords.ts";
import type { AuthDeps } from "./deps.ts";

/** What a sign-in of any kind gives: the token and the user. */
export interface Session {
  token: string;
  user: User;
}

/** A signed-in session: the token and the user (the routes wrap it in the envelope). */
export async function session(
  deps: Pick<AuthDeps, "db" | "tokens">,
  user: UserRow,
): Promise<Session> {
  return {
    token: await deps.tokens.sign(user),
    user: toUser(user, await subscriptionOf(deps.db, user.id)),
  };
}

export function assertActive(user: UserRow): void {
  if (!user.isActive) throw new HttpError(403, AUTH_MESSAGES.accountDeactivated);
}

/** After a successful sign-in of any kind: lastLogin, then the session. */
export async function signedIn(
  deps: Pick<AuthDeps, "db" | "tokens" | "users">,
  user: UserRow,
): Promise<Session> {
  const updated = (await deps.users.recordLogin(user.id)) ?? user;
  return session(deps, updated);
}

/**
 * Refuses a sign-up under the operator's minimum age (decision 0054) before anything is read
 * or written: no row, no credits, nothing that names the visitor.
 */
export async function assertOldEnough(
  deps: Pick<AuthDeps, "settings">,
  dateOfBirth: string,
  refusedBefore: boolean,
): Promise<void> {
  const { minimumAge } = await deps.settings.get();
  if (refusedBefore || isUnderAge(dateOfBirth, minimumAge)) {
    throw new HttpError(403, AGE_MESSAGES.underAge(minimumAge), { code: UNDER_AGE_CODE });
  }
}

/** Creates an account and grants the sign-up credits, in one transaction. */
export async function createAccount(
  deps: Pick<AuthDeps, "db" | "settings" | "users">,
  values: {
    name: string;
    email: string;
    passwordHash: string | null;
    dateOfBirth: string;
    googleId?: string;
    profileImage?: string | null;
  },
): Promise<UserRow> {
  const { defaultCredits } = await deps.settings.get();
  return deps.db.transaction(async (tx) => {
    const user = await deps.users.insert({ ...values, lastLogin: new Date() }, tx);
    if (!user) throw new HttpError(409, AUTH_MESSAGES.emailTaken);
    if (defaultCredits <= 0) return user;
    const { balance } = await applyCreditMovement(tx, {
      userId: user.id,
      kind: "grant",
      amount: defaultCredits,
      sourceKey: `signup:${user.id}`,
      metadata: { reason: "signup" },
    });
    return { ...user, credits: balance };
  });
}

/** Checks e-mail and password; the same 401 whatever is wrong. */
export async function checkCredentials(
  deps: Pick<AuthDeps, "users">,
  email: string,
  password: string,
): Promise<UserRow> {
  const user = await deps.users.findByEmail(email);
  const ok = user?.passwordHash
    ? await verifyPassword(user.passwordHash, password)
    : await verifyAgainstDummy(password);
  if (!user || !ok) throw new HttpError(401, AUTH_MESSAGES.invalidCredentials);
  return user;
}

/** New password for an account: every earlier token ends. Answers the updated row. */
export async function setPassword(
  deps: Pick<AuthDeps, "users">,
  user: UserRow,
  password: string,
  tx?: Database,
): Promise<UserRow> {
  const updated = await deps.users.update(
    user.id,
    { passwordHash: await hashPassword(password), bumpTokens: true },
    tx,
  );
  if (!updated) throw new HttpError(404, "User not found");
  return updated;
}
