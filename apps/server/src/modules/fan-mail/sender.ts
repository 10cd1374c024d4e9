import { type PublicSettings, routes } from "@twinline/contracts";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import { type FanEmailRow, fanEmails, mailPreferences, users } from "../../db/schema/index.ts";
import type { Clock } from "../../lib/clock.ts";
import { redactSecrets } from "../../lib/secret-values.ts";
import type { MailMessage, MailProvider } from "../../providers/mail/index.ts";
import { dueCondition } from "./enqueue.ts";
import { type FanEmailKind, isTransactional } from "./kinds.ts";
import { renderMail } from "./templates/layout.ts";
import { isKnownKind, messageFor } from "./templates/messages.ts";
import type { UnsubscribeTokens } from "./unsubscribe-token.ts";

/** A mail that failed this many times is given up (`failed`; the log says why). */
export const MAX_SEND_ATTEMPTS = 6;
/** How long a claimed mail is left to its sender before another may take it (a crash). */
export const SEND_LEASE_MS = 10 * 60_000;
const BATCH = 20;
/** At most this many batches per pass: the next pass (or kick) takes the rest. */
const MAX_BATCHES = 10;

/** The wait before try `attempts + 1`: 1, 2, 4, 8, 16 minutes... at most 6 hours. */
export const retryDelayMs = (attempts: number): number =>
  Math.min(2 ** Math.max(0, attempts - 1) * 60_000, 6 * 60 * 60_000);

export interface FanMailSenderDeps {
  db: Database;
  mail: MailProvider;
  settings: { get(): Promise<Readonly<PublicSettings>> };
  /** PUBLIC_URL: links and the logo. */
  publicUrl: string;
  tokens: UnsubscribeTokens;
  clock: Clock;
  log: FastifyBaseLogger;
}

export interface SendOutcome {
  sent: number;
  retried: number;
  failed: number;
  skipped: number;
}

/** The stored logo as an absolute URL, or null (none, or not a path or http(s) URL). */
export function logoUrlOf(settings: Pick<PublicSettings, "lightThemeLogo">, publicUrl: string) {
  const logo = settings.lightThemeLogo.trim();
  if (/^https?:\/\//i.test(logo)) return logo;
  if (logo.startsWith("/") && !logo.startsWith("//")) return `${publicUrl}${logo}`;
  return null;
}

export const unsubscribeUrlOf = (publicUrl: string, token: string) =>
  `${publicUrl}${routes.mail.unsubscribe.path}?token=${encodeURIComponent(token)}`;

/**
 * Claims up to BATCH due mails: `sending`, one more attempt, leased until now + SEND_LEASE_MS.
 * `for update skip locked`: two senders (two instances, a kick and the sweep) never take the
 * same row.
 */
async function claim(db: Database, now: Date): Promise<FanEmailRow[]> {
  const due = db
    .select({ id: fanEmails.id })
    .from(fanEmails)
    .where(dueCondition(now))
    .orderBy(asc(fanEmails.createdAt))
    .limit(BATCH)
    .for("update", { skipLocked: true });
  return db
    .update(fanEmails)
    .set({
      status: "sending",
      attempts: sql`${fanEmails.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + SEND_LEASE_MS),
    })
    .where(inArray(fanEmails.id, due))
    .returning();
}

type Prepared = { message: MailMessage } | { skip: string };

/** The mail of one row, to its recipient now; or why it is not sent. */
async function prepare(
  deps: FanMailSenderDeps,
  row: FanEmailRow,
  settings: Readonly<PublicSettings>,
): Promise<Prepared> {
  if (!isKnownKind(row.kind)) return { skip: `unknown kind ${row.kind}` };
  const kind: FanEmailKind = row.kind;
  let to = row.toAddress;
  let name = "";
  let unsubscribeUrl: string | null = null;
  if (row.userId) {
    const [user] = await deps.db
      .select({ email: users.email, name: users.name, isActive: users.isActive })
      .from(users)
      .where(eq(users.id, row.userId));
    if (!user) return { skip: "the account is gone" };
    to ??= user.email;
    name = user.name;
    if (!isTransactional(kind)) {
      if (!user.isActive) return { skip: "the account is deactivated" };
      const [optedOut] = await deps.db
        .select({ userId: mailPreferences.userId })
        .from(mailPreferences)
        .where(eq(mailPreferences.userId, row.userId));
      if (optedOut) return { skip: "unsubscribed" };
      unsubscribeUrl = unsubscribeUrlOf(deps.publicUrl, deps.tokens.sign(row.userId));
    }
  }
  if (!to) return { skip: "no recipient" };
  const content = messageFor(kind, row.payload as never, {
    name,
    siteName: settings.siteName,
    publicUrl: deps.publicUrl,
  });
  const rendered = renderMail(
    content,
    { siteName: settings.siteName, logoUrl: logoUrlOf(settings, deps.publicUrl) },
    unsubscribeUrl,
  );
  const payload = row.payload as { fromEmail?: unknown };
  return {
    message: {
      to,
      ...rendered,
      ...(kind === "contact_message" && typeof payload.fromEmail === "string"
        ? { replyTo: payload.fromEmail }
        : {}),
      ...(unsubscribeUrl
        ? {
            headers: {
              "List-Unsubscribe": `<${unsubscribeUrl}>`,
              "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
          }
        : {}),
    },
  };
}

/** Settles a claimed row, only if it is still this claim's (same attempt, still `sending`). */
const settle = (db: Database, row: FanEmailRow, values: Partial<typeof fanEmails.$inferInsert>) =>
  db
    .update(fanEmails)
    .set(values)
    .where(
      and(
        eq(fanEmails.id, row.id),
        eq(fanEmails.status, "sending"),
        eq(fanEmails.attempts, row.attempts),
      ),
    );

/**
 * THE sender of the queued e-mails (docs/decisions/0066): claims the due rows, renders each with
 * the site's name and logo as they are now, sends it through the mail provider (SMTP, or the
 * outbox), and marks it sent; a failure is tried again later (retryDelayMs) until
 * MAX_SEND_ATTEMPTS. A plain function over its dependencies, so a job queue can run it as is.
 * Runs after the commits that queue mail (a kick) and from the periodic sweep.
 */
export async function sendDueFanEmails(deps: FanMailSenderDeps): Promise<SendOutcome> {
  const outcome: SendOutcome = { sent: 0, retried: 0, failed: 0, skipped: 0 };
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const rows = await claim(deps.db, new Date(deps.clock.now()));
    if (rows.length === 0) break;
    const settings = await deps.settings.get();
    for (const row of rows) {
      try {
        const prepared = await prepare(deps, row, settings);
        if ("skip" in prepared) {
          await settle(deps.db, row, { status: "skipped", lastError: prepared.skip });
          outcome.skipped += 1;
          continue;
        }
        await deps.mail.send(prepared.message);
        await settle(deps.db, row, {
          status: "sent",
          sentAt: new Date(deps.clock.now()),
          lastError: null,
        });
        outcome.sent += 1;
      } catch (error) {
        const reason = redactSecrets(error instanceof Error ? error.message : String(error)).slice(
          0,
          500,
        );
        const giveUp = row.attempts >= MAX_SEND_ATTEMPTS;
        await settle(deps.db, row, {
          status: giveUp ? "failed" : "pending",
          lastError: reason,
          nextAttemptAt: new Date(deps.clock.now() + retryDelayMs(row.attempts)),
        }).catch((settleError: unknown) =>
          deps.log.error({ err: settleError, mailId: row.id }, "Could not record a mail failure"),
        );
        if (giveUp) outcome.failed += 1;
        else outcome.retried += 1;
        deps.log[giveUp ? "error" : "warn"](
          { mailId: row.id, kind: row.kind, attempts: row.attempts, reason },
          giveUp
            ? "E-mail given up after its last attempt"
            : "E-mail failed; it will be tried again",
        );
      }
    }
    if (rows.length < BATCH) break;
  }
  return outcome;
}
