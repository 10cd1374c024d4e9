import { randomUUID } from "node:crypto";
import { PRIVACY_MESSAGES } from "@twinline/contracts";
import { and, eq, notInArray, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import {
  adminAuditLog,
  creditLedger,
  mailOutbox,
  sandboxObjects,
  userSubscriptions,
  users,
} from "../../db/schema/index.ts";
import { HttpError } from "../../plugins/errors.ts";
import { PUBLIC_UPLOADS_PREFIX } from "../../plugins/uploads.ts";
import type { FileStorage } from "../../providers/storage/index.ts";
import { STORED_NAME } from "../../providers/storage/index.ts";
import { type AuditActor, writeAuditEntry } from "../audit/in-transaction.ts";
import { createDataExportsRepository } from "./export-repository.ts";

/**
 * The credit movements accounting keeps, detached from the person (decision 0063): those paid
 * for or given back. Sign-up grants, call minutes and adjustments go with the account.
 */
export const KEPT_LEDGER_KINDS = ["purchase", "subscription_grant", "refund"] as const;

/** What a deleted person's name and e-mail become where a kept record had them. */
export const DELETED_USER = "Deleted user";

export interface AccountDeletionDeps {
  db: Database;
  log: FastifyBaseLogger;
  /** Ends every subscription of the user at its provider now; throws if a provider refuses. */
  cancelSubscriptions(userId: string): Promise<unknown>;
  /** Ends every token of the account (deactivates it): logins and requests stop at once. */
  endSessions(userId: string): Promise<unknown>;
  /** Ends the account's live call, metered as it stood. */
  endCall(userId: string): Promise<void>;
  publicFiles: FileStorage;
  privateFiles: FileStorage;
}

/** The characters of `text` as they sit inside a JSON string (the audit log's jsonb as text). */
const inJson = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * Deletes an account (issue 26, decision 0063), by the fan or by an admin on request:
 * 1. every subscription is ended at its provider now (if a provider refuses, nothing is deleted:
 *    502, and the fan can try again);
 * 2. every session ends and the live call ends;
 * 3. in one transaction: the personal data are erased (the users row and, by its foreign keys,
 *    conversations, messages, memory, summaries, calls and transcripts, usage, reset links,
 *    push subscriptions, choices and notices,
 *    checkout sessions, exports), the payment records accounting must keep are detached
 *    (user_id set null: "Deleted user"), the e-mail and name are scrubbed from the records
 *    that carry them as text (outbox mail, the audit log, the sandbox provider's store), and
 *    an admin's deletion writes its audit entry;
 * 4. the account's files (a stored profile image, its export ZIPs) are removed.
 * The e-mail is free again at once: it can sign up as a new account.
 */
export async function deleteAccount(
  deps: AccountDeletionDeps,
  userId: string,
  actor: AuditActor | null,
): Promise<void> {
  const { db } = deps;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new HttpError(404, PRIVACY_MESSAGES.userNotFound);
  if (user.role === "admin") throw new HttpError(403, PRIVACY_MESSAGES.adminCannotDeleteAdmin);

  try {
    await deps.cancelSubscriptions(userId);
  } catch (error) {
    deps.log.error({ err: error, userId }, "Account deletion stopped: a subscription is still on");
    throw new HttpError(502, PRIVACY_MESSAGES.deleteProviderFailed);
  }
  await deps.endSessions(userId);
  await deps.endCall(userId);

  const files = await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!locked) throw new HttpError(404, PRIVACY_MESSAGES.userNotFound);
    const email = locked.email.toLowerCase();
    const exportFiles = await createDataExportsRepository(db).filesOf(userId, tx);

    await tx
      .delete(creditLedger)
      .where(
        and(eq(creditLedger.userId, userId), notInArray(creditLedger.kind, [...KEPT_LEDGER_KINDS])),
      );
    await tx.delete(mailOutbox).where(sql`lower(${mailOutbox.to}) = ${email}`);
    await scrubAuditLog(tx, { userId, email, name: locked.name });
    await scrubSandbox(tx, userId, email);

    if (actor) {
      await writeAuditEntry(tx, actor, {
        action: "user.delete",
        targetType: "user",
        targetId: userId,
        // Never the person's data: the entry outlives them.
        before: { role: locked.role, createdAt: locked.createdAt.toISOString() },
        after: { deleted: true },
      });
    }
    await tx.delete(users).where(eq(users.id, userId));
    return { exportFiles, profileImage: storedImageOf(locked.profileImage) };
  });

  // After the commit: a file that fails to go is logged; the account is gone either way.
  const removals = [
    ...files.exportFiles.map((name) => deps.privateFiles.delete(name)),
    ...(files.profileImage ? [deps.publicFiles.delete(files.profileImage)] : []),
  ];
  for (const result of await Promise.allSettled(removals)) {
    if (result.status === "rejected") {
      deps.log.error({ err: result.reason, userId }, "A deleted account's file was not removed");
    }
  }
}

/** The stored file behind a profile image of ours ("/uploads/<name>"), if it is one. */
function storedImageOf(profileImage: string | null): string | undefined {
  if (!profileImage?.startsWith(PUBLIC_UPLOADS_PREFIX)) return undefined;
  const name = profileImage.slice(PUBLIC_UPLOADS_PREFIX.length);
  return STORED_NAME.test(name) ? name : undefined;
}

/**
 * The audit log is the operators' record and stays, but not the person in it: the e-mail is
 * replaced everywhere, the name in the entries about this account (the target's id stays, in
 * `target_id` and the request's path: a key to nothing once the account is gone).
 */
async function scrubAuditLog(
  tx: Database,
  person: { userId: string; email: string; name: string },
): Promise<void> {
  const email = inJson(person.email);
  const name = inJson(person.name);
  const replaced = (column: AnyPgColumn, about: boolean) =>
    about
      ? sql`replace(replace(${column}::text, ${email}, ${DELETED_USER}), ${name}, ${DELETED_USER})::jsonb`
      : sql`replace(${column}::text, ${email}, ${DELETED_USER})::jsonb`;
  await tx
    .update(adminAuditLog)
    .set({
      before: replaced(adminAuditLog.before, true),
      after: replaced(adminAuditLog.after, true),
    })
    .where(eq(adminAuditLog.targetId, person.userId));
  await tx
    .update(adminAuditLog)
    .set({
      before: replaced(adminAuditLog.before, false),
      after: replaced(adminAuditLog.after, false),
    })
    .where(
      sql`position(${email} in coalesce(${adminAuditLog.before}::text, '') || coalesce(${adminAuditLog.after}::text, '')) > 0`,
    );
}

/**
 * The offline sandbox plays the payment provider, whose records hold the customer's e-mail and
 * the account's id (its customer id is made of it). They stay consistent with each other and
 * with the kept subscription rows, under a new random id instead.
 */
async function scrubSandbox(tx: Database, userId: string, email: string): Promise<void> {
  const replacement = randomUUID();
  const compact = userId.replaceAll("-", "");
  const compactReplacement = replacement.replaceAll("-", "");
  await tx
    .update(sandboxObjects)
    .set({
      id: sql`replace(${sandboxObjects.id}, ${compact}, ${compactReplacement})`,
      data: sql`replace(replace(replace(${sandboxObjects.data}::text, ${inJson(email)}, 'deleted-user@invalid'), ${userId}, ${replacement}), ${compact}, ${compactReplacement})::jsonb`,
    })
    .where(
      sql`position(${compact} in ${sandboxObjects.id}) > 0 or position(${compact} in ${sandboxObjects.data}::text) > 0 or position(${userId} in ${sandboxObjects.data}::text) > 0 or position(${inJson(email)} in ${sandboxObjects.data}::text) > 0`,
    );
  await tx
    .update(userSubscriptions)
    .set({
      providerCustomerId: sql`replace(${userSubscriptions.providerCustomerId}, ${compact}, ${compactReplacement})`,
    })
    .where(
      and(
        eq(userSubscriptions.userId, userId),
        sql`position(${compact} in coalesce(${userSubscriptions.providerCustomerId}, '')) > 0`,
      ),
    );
}
