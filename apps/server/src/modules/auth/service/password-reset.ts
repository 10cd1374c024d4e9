import { randomBytes } from "node:crypto";
import { AUTH_MESSAGES } from "@twinline/contracts";
import type { UserRow } from "../../../db/schema/index.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { MailMessage } from "../../../providers/mail/index.ts";
import { hashPassword } from "../passwords.ts";
import { assertActive, session } from "./accounts.ts";
import { type AuthDeps, sha256 } from "./deps.ts";

/** Reset tokens: 32 random bytes, base64url (43 characters); the spec asks at least 20. */
const RESET_TOKEN_BYTES = 32;
const RESET_TOKEN_MIN_LENGTH = 20;

/** Same outcome whether or not the account exists; the link goes out by mail. */
export async function forgotPassword(deps: AuthDeps, email: string): Promise<void> {
  const user = await deps.users.findByEmail(email);
  if (!user?.isActive) return;
  const token = randomBytes(RESET_TOKEN_BYTES).toString("base64url");
  await deps.resetTokens.create(user.id, sha256(token));
  const sending = deps.mail
    .send(resetMail(user, `${deps.publicUrl}/reset-password/${token}`))
    .catch((error: unknown) => {
      deps.log.error({ err: error, to: user.email }, "Password reset mail not sent");
    });
  deps.pendingMail.add(sending);
  void sending.finally(() => deps.pendingMail.delete(sending));
}

export async function resetPassword(deps: AuthDeps, token: string, password: string) {
  const trimmed = resetTokenOf(token);
  const passwordHash = await hashPassword(password);
  const user = await deps.db.transaction(async (tx) => {
    const userId = await deps.resetTokens.consume(tx, sha256(trimmed));
    if (!userId) throw new HttpError(400, AUTH_MESSAGES.resetTokenInvalid);
    const updated = await deps.users.update(
      userId,
      { passwordHash, bumpTokens: true, lastLogin: new Date() },
      tx,
    );
    if (!updated) throw new HttpError(400, AUTH_MESSAGES.resetTokenInvalid);
    // Rolls back: the link stays usable should the account be activated again.
    assertActive(updated);
    return updated;
  });
  return session(deps, user);
}

/** Waits for mail still being sent (the app is closing). */
export async function drain(deps: Pick<AuthDeps, "pendingMail">): Promise<void> {
  await Promise.allSettled([...deps.pendingMail]);
}

/** The token of a reset link, trimmed; 400 when too short to be one this server made. */
export function resetTokenOf(token: string): string {
  const trimmed = token.trim();
  if (trimmed.length < RESET_TOKEN_MIN_LENGTH) {
    throw new HttpError(400, AUTH_MESSAGES.resetTokenInvalid);
  }
  return trimmed;
}

/** The mail with the reset link, the account's name and the link escaped in its HTML. */
export function resetMail(user: Pick<UserRow, "email" | "name">, link: string): MailMessage {
  return {
    to: user.email,
    subject: "Reset your password",
    text:
      `Hello ${user.name},\n\nSomeone asked to reset the password of your account. ` +
      `Open this link within one hour to choose a new password:\n\n${link}\n\n` +
      "If it was not you, ignore this mail: your password stays as it is.\n",
    html:
      `<p>Hello ${escapeHtml(user.name)},</p><p>Someone asked to reset the password of ` +
      `your account. Open this link within one hour to choose a new password:</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
      "<p>If it was not you, ignore this mail: your password stays as it is.</p>",
  };
}

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}
