import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../../db/client.ts";
import {
  chatDailyUsage,
  chatMessages,
  checkoutConsents,
  conversations,
  creditLedger,
  fanMemory,
  paymentRefunds,
  payments,
  subscriptionEvents,
  subscriptionPlans,
  userSubscriptions,
  users,
  voiceCalls,
  voiceDailyUsage,
} from "../../db/schema/index.ts";
import { toMajor } from "../../lib/money.ts";

/** Rows read per query: a fan with 100,000 messages is read a page at a time, never at once. */
export const EXPORT_PAGE_SIZE = 1000;

/** Where a kind writes its file's text, a piece at a time (the ZIP compresses as it goes). */
export interface ExportOutput {
  write(text: string): Promise<void>;
}

export interface ExportContext {
  db: Database;
  userId: string;
}

/**
 * One file of the export (issue 26, decision 0062). A new kind of data is one more entry in
 * EXPORT_KINDS: its file, what the README says of it and of each field, and how it is written.
 */
export interface ExportKind {
  file: string;
  title: string;
  fields: Record<string, string>;
  write(out: ExportOutput, context: ExportContext): Promise<void>;
}

const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

/** Writes `rows` as a JSON array, one element a line, as they come. */
export async function writeArray(
  out: ExportOutput,
  rows: AsyncIterable<unknown> | Iterable<unknown>,
): Promise<void> {
  let first = true;
  await out.write("[");
  for await (const row of rows) {
    await out.write(`${first ? "\n" : ",\n"}  ${JSON.stringify(row)}`);
    first = false;
  }
  await out.write(first ? "]\n" : "\n]\n");
}

/**
 * Every row of a keyset-paged read: `page(after)` answers the rows after the last one of the
 * previous page (undefined: from the start), in the order of the key.
 */
export async function* keysetPages<T>(
  page: (after: T | undefined) => Promise<T[]>,
): AsyncGenerator<T[]> {
  let after: T | undefined;
  for (;;) {
    const rows = await page(after);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_PAGE_SIZE) return;
    after = rows.at(-1);
  }
}

async function* flatten<T, U>(pages: AsyncIterable<T[]>, map: (rows: T[]) => Promise<U[]> | U[]) {
  for await (const rows of pages) yield* await map(rows);
}

/**
 * Rows after the last one read, in (time, tie) order: compared with that row's own key as the
 * database holds it (microseconds; a JS Date has only milliseconds, and rows of one millisecond
 * would be read twice), found by its primary key.
 */
const afterKey = (
  table: PgTable,
  timeColumn: AnyPgColumn,
  tieColumn: AnyPgColumn,
  primaryKey: AnyPgColumn,
  after: { pk: string } | undefined,
) =>
  after
    ? sql`(${timeColumn}, ${tieColumn}) > (select ${timeColumn}, ${tieColumn} from ${table} where ${primaryKey} = ${after.pk})`
    : undefined;

const profile: ExportKind = {
  file: "profile.json",
  title: "Your account",
  fields: {
    id: "Your account's id",
    name: "Your name",
    email: "Your e-mail address",
    signsInWithPassword: "Whether the account has a password",
    signsInWithGoogle: "Whether the account is linked to a Google account",
    profileImage: "Your profile picture's address, if any",
    dateOfBirth: "The date of birth given at sign-up",
    credits: "Your credit balance when the export was made",
    createdAt: "When the account was made",
    lastLogin: "Your last sign-in",
  },
  async write(out, { db, userId }) {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw new Error("The account of this export is gone");
    const value = {
      id: user.id,
      name: user.name,
      email: user.email,
      signsInWithPassword: user.passwordHash !== null,
      signsInWithGoogle: user.googleId !== null,
      profileImage: user.profileImage,
      dateOfBirth: user.dateOfBirth,
      credits: user.credits,
      createdAt: iso(user.createdAt),
      lastLogin: iso(user.lastLogin),
    };
    await out.write(`${JSON.stringify(value, null, 2)}\n`);
  },
};

const conversationList: ExportKind = {
  file: "conversations.json",
  title: "Your conversations with the persona (their messages are in messages.json)",
  fields: {
    id: "The conversation's id (messages.json names it in conversationId)",
    title: "Its title",
    startedAt: "When it started",
    lastMessageAt: "Its latest message",
    messageCount: "How many messages it holds",
    callCount: "How many voice calls took place in it",
  },
  async write(out, { db, userId }) {
    const pages = keysetPages((after: { pk: string } | undefined) =>
      db
        .select({
          pk: conversations.id,
          id: conversations.id,
          title: conversations.title,
          time: conversations.startedAt,
          lastMessageAt: conversations.lastMessageAt,
          messageCount: conversations.messageCount,
          callCount: conversations.callCount,
        })
        .from(conversations)
        .where(
          and(
            eq(conversations.userId, userId),
            afterKey(
              conversations,
              conversations.startedAt,
              conversations.id,
              conversations.id,
              after,
            ),
          ),
        )
        .orderBy(asc(conversations.startedAt), asc(conversations.id))
        .limit(EXPORT_PAGE_SIZE),
    );
    await writeArray(
      out,
      flatten(pages, (rows) =>
        rows.map((row) => ({
          id: row.id,
          title: row.title,
          startedAt: iso(row.time),
          lastMessageAt: iso(row.lastMessageAt),
          messageCount: row.messageCount,
          callCount: row.callCount,
        })),
      ),
    );
  },
};

/** A fan's messages in the order they were written, a page at a time (the user's index). */
function messagePages(db: Database, userId: string, only?: SQL) {
  return keysetPages((after: { pk: string } | undefined) =>
    db
      .select({
        pk: chatMessages.id,
        id: chatMessages.id,
        seq: chatMessages.seq,
        time: chatMessages.createdAt,
        conversationId: chatMessages.conversationId,
        sender: chatMessages.sender,
        productKind: chatMessages.productKind,
        content: chatMessages.content,
        callId: chatMessages.callId,
        replyFailed: chatMessages.replyFailed,
        forgotten: chatMessages.forgotten,
      })
      .from(chatMessages)
      .where(
        and(
          eq(chatMessages.userId, userId),
          only,
          afterKey(chatMessages, chatMessages.createdAt, chatMessages.seq, chatMessages.id, after),
        ),
      )
      .orderBy(asc(chatMessages.createdAt), asc(chatMessages.seq))
      .limit(EXPORT_PAGE_SIZE)
      .then((rows) => rows.map((row) => ({ ...row, id: row.seq, messageId: row.id }))),
  );
}

const messages: ExportKind = {
  file: "messages.json",
  title: "Every message of your conversations, yours and the persona's, oldest first",
  fields: {
    id: "The message's id",
    conversationId: "The conversation it belongs to (conversations.json)",
    sender: "user: you; ai: the persona; product: a notice of the product itself",
    productKind: "For a product notice, which one",
    content: "The text (a call turn's words as transcribed or spoken)",
    createdAt: "When it was written",
    callId: "The voice call it was said in (calls.json), if any",
    replyFailed: "The persona could not answer this message",
    forgotten: "You asked the persona to forget it: it is never used again",
  },
  async write(out, { db, userId }) {
    await writeArray(
      out,
      flatten(messagePages(db, userId), (rows) =>
        rows.map((row) => ({
          id: row.messageId,
          conversationId: row.conversationId,
          sender: row.sender,
          productKind: row.productKind,
          content: row.content,
          createdAt: iso(row.time),
          callId: row.callId,
          replyFailed: row.replyFailed,
          forgotten: row.forgotten,
        })),
      ),
    );
  },
};

const notices: ExportKind = {
  file: "notices.json",
  title: "The product's notices shown to you in your conversations (for example the AI notice)",
  fields: {
    id: "The notice's id (also in messages.json)",
    kind: "Which notice",
    conversationId: "The conversation it was shown in",
    callId: "The voice call it was shown in, if any",
    content: "Its text",
    shownAt: "When it was shown",
  },
  async write(out, { db, userId }) {
    await writeArray(
      out,
      flatten(messagePages(db, userId, eq(chatMessages.sender, "product")), (rows) =>
        rows.map((row) => ({
          id: row.messageId,
          kind: row.productKind,
          conversationId: row.conversationId,
          callId: row.callId,
          content: row.content,
          shownAt: iso(row.time),
        })),
      ),
    );
  },
};

/** What the fan agreed to at each checkout (issue 26 item 3): few rows, read at once. */
const consents: ExportKind = {
  file: "consents.json",
  title: "What you agreed to at each checkout",
  fields: {
    id: "The consent's id",
    kind: "plan (renewal terms) or credits (immediate delivery)",
    version: "The version of the wording you were shown",
    text: "The words you were shown and agreed to",
    amount: "The price shown",
    currency: "Its currency",
    ipAddress: "The address you agreed from",
    acceptedAt: "When you agreed",
  },
  async write(out, { db, userId }) {
    const rows = await db
      .select()
      .from(checkoutConsents)
      .where(eq(checkoutConsents.userId, userId))
      .orderBy(asc(checkoutConsents.acceptedAt), asc(checkoutConsents.id));
    await writeArray(
      out,
      rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        version: row.version,
        text: row.text,
        amount: toMajor(row.amountMinor),
        currency: row.currency,
        ipAddress: row.ipAddress,
        acceptedAt: iso(row.acceptedAt),
      })),
    );
  },
};

interface CallRow {
  pk: string;
  id: string;
  time: Date;
  endedAt: Date | null;
  durationSeconds: number;
  minutesCharged: number;
  creditsPerMinute: number;
  creditsConsumed: number;
  endReason: string | null;
}

const calls: ExportKind = {
  file: "calls.json",
  title: "Your voice calls with their transcripts",
  fields: {
    id: "The call's id",
    startedAt: "When it started",
    endedAt: "When it ended (null while live)",
    durationSeconds: "How long it lasted",
    minutesCharged: "Minutes charged (each started minute)",
    creditsPerMinute: "The rate when it started",
    creditsConsumed: "Credits it cost",
    endReason: "Why it ended",
    transcript: "What was said, in order: sender (user or ai), content, createdAt",
  },
  async write(out, { db, userId }) {
    const pages = keysetPages(
      (after: { pk: string } | undefined): Promise<CallRow[]> =>
        db
          .select({
            pk: voiceCalls.id,
            id: voiceCalls.id,
            time: voiceCalls.startedAt,
            endedAt: voiceCalls.endedAt,
            durationSeconds: voiceCalls.durationSeconds,
            minutesCharged: voiceCalls.minutesCharged,
            creditsPerMinute: voiceCalls.creditsPerMinute,
            creditsConsumed: voiceCalls.creditsConsumed,
            endReason: voiceCalls.endReason,
          })
          .from(voiceCalls)
          .where(
            and(
              eq(voiceCalls.userId, userId),
              afterKey(voiceCalls, voiceCalls.startedAt, voiceCalls.id, voiceCalls.id, after),
            ),
          )
          .orderBy(asc(voiceCalls.startedAt), asc(voiceCalls.id))
          .limit(EXPORT_PAGE_SIZE),
    );
    // A page of calls and their turns: one query for the page's transcripts (the call index).
    const withTranscripts = async (page: CallRow[]) => {
      const turns = await db
        .select({
          callId: chatMessages.callId,
          sender: chatMessages.sender,
          content: chatMessages.content,
          createdAt: chatMessages.createdAt,
        })
        .from(chatMessages)
        .where(
          inArray(
            chatMessages.callId,
            page.map((call) => call.id),
          ),
        )
        .orderBy(asc(chatMessages.callId), asc(chatMessages.createdAt), asc(chatMessages.seq));
      return page.map((call) => ({
        id: call.id,
        startedAt: iso(call.time),
        endedAt: iso(call.endedAt),
        durationSeconds: call.durationSeconds,
        minutesCharged: call.minutesCharged,
        creditsPerMinute: call.creditsPerMinute,
        creditsConsumed: call.creditsConsumed,
        endReason: call.endReason,
        transcript: turns
          .filter((turn) => turn.callId === call.id)
          .map((turn) => ({
            sender: turn.sender,
            content: turn.content,
            createdAt: iso(turn.createdAt),
          })),
      }));
    };
    await writeArray(out, flatten(pages, withTranscripts));
  },
};

const memory: ExportKind = {
  file: "memory.json",
  title: "What the persona remembers of you",
  fields: {
    enabled: "Whether memory is on",
    summary: "The persona's running summary of you (kept only with an AI provider key)",
    summaryUpdatedAt: "When the summary was last written",
    facts: "What you told about yourself that the persona recalls: id, content, createdAt, callId",
  },
  async write(out, { db, userId }) {
    const [kept] = await db.select().from(fanMemory).where(eq(fanMemory.userId, userId));
    const head = {
      enabled: kept?.enabled ?? true,
      summary: kept?.summary ?? null,
      summaryUpdatedAt: iso(kept?.summaryUpdatedAt),
    };
    await out.write(`${JSON.stringify(head, null, 2).slice(0, -2)},\n  "facts": `);
    const remembered = sql`${chatMessages.remembered} and not ${chatMessages.forgotten}`;
    await writeArray(
      out,
      flatten(messagePages(db, userId, remembered), (rows) =>
        rows.map((row) => ({
          id: row.messageId,
          content: row.content,
          createdAt: iso(row.time),
          callId: row.callId,
        })),
      ),
    );
    await out.write("}\n");
  },
};

const creditLedgerKind: ExportKind = {
  file: "credit-ledger.json",
  title: "Every movement of your credits, oldest first",
  fields: {
    id: "The movement's id",
    kind: "grant, purchase, subscription_grant, call_minute, admin_adjustment or refund",
    amount: "Credits added (positive) or taken (negative)",
    balanceAfter: "Your balance once it applied",
    reference: "What caused it (a payment, a call minute...)",
    details: "More about it (the package, the plan, an adjustment's reason...)",
    createdAt: "When it happened",
  },
  async write(out, { db, userId }) {
    const pages = keysetPages((after: { pk: string } | undefined) =>
      db
        .select({
          pk: creditLedger.id,
          id: creditLedger.id,
          time: creditLedger.createdAt,
          kind: creditLedger.kind,
          amount: creditLedger.amount,
          balanceAfter: creditLedger.balanceAfter,
          reference: creditLedger.sourceKey,
          details: creditLedger.metadata,
        })
        .from(creditLedger)
        .where(
          and(
            eq(creditLedger.userId, userId),
            afterKey(creditLedger, creditLedger.createdAt, creditLedger.id, creditLedger.id, after),
          ),
        )
        .orderBy(asc(creditLedger.createdAt), asc(creditLedger.id))
        .limit(EXPORT_PAGE_SIZE),
    );
    await writeArray(
      out,
      flatten(pages, (rows) => rows.map(({ time, ...row }) => ({ ...row, createdAt: iso(time) }))),
    );
  },
};

const paymentsKind: ExportKind = {
  file: "payments.json",
  title: "Your payments (credit packages and subscriptions), with their refunds",
  fields: {
    id: "The payment's id",
    kind: "credits (a package) or subscription",
    status: "success, pending, failed, refunded or credited",
    amount: "The amount, in the currency's major unit",
    currency: "The currency",
    credits: "Credits it bought",
    item: "The package's or plan's name",
    provider: "stripe or sandbox",
    providerPaymentId: "The payment's id at the provider",
    invoiceId: "The provider's invoice id, if any",
    invoiceNumber: "The invoice number, if any",
    refundedAmount: "What was given back so far",
    transactionDate: "When it was paid",
    refunds: "Each refund or dispute: amount, status, kind, reason, createdAt",
  },
  async write(out, { db, userId }) {
    const pages = keysetPages((after: { pk: string } | undefined) =>
      db
        .select()
        .from(payments)
        .where(
          and(
            eq(payments.userId, userId),
            afterKey(payments, payments.transactionDate, payments.seq, payments.id, after),
          ),
        )
        .orderBy(asc(payments.transactionDate), asc(payments.seq))
        .limit(EXPORT_PAGE_SIZE)
        .then((rows) => rows.map((row) => ({ pk: row.id, row }))),
    );
    const withRefunds = async (rows: { row: typeof payments.$inferSelect }[]) => {
      const refunds = await db
        .select()
        .from(paymentRefunds)
        .where(
          inArray(
            paymentRefunds.paymentId,
            rows.map(({ row }) => row.id),
          ),
        )
        .orderBy(asc(paymentRefunds.createdAt));
      return rows.map(({ row }) => ({
        id: row.id,
        kind: row.kind,
        status: row.status,
        amount: toMajor(row.amountMinor),
        currency: row.currency,
        credits: row.credits,
        item: row.itemName,
        provider: row.provider,
        providerPaymentId: row.stripePaymentId,
        invoiceId: row.invoiceId,
        invoiceNumber: row.invoiceNumber,
        refundedAmount: toMajor(row.refundedMinor),
        transactionDate: iso(row.transactionDate),
        refunds: refunds
          .filter((refund) => refund.paymentId === row.id)
          .map((refund) => ({
            amount: toMajor(refund.amountMinor),
            status: refund.status,
            kind: refund.kind,
            reason: refund.reason,
            createdAt: iso(refund.createdAt),
          })),
      }));
    };
    await writeArray(out, flatten(pages, withRefunds));
  },
};

const subscriptions: ExportKind = {
  file: "subscriptions.json",
  title: "Your subscriptions and their history",
  fields: {
    subscriptions:
      "Each subscription: id, plan, status, price, currency, currentPeriodStart, currentPeriodEnd, cancelAtPeriodEnd, canceledAt, createdAt",
    history:
      "Each event: subscriptionId, plan, eventType, status, startDate, endDate, amount, currency, autoRenew, timestamp",
  },
  async write(out, { db, userId }) {
    // A fan has a few subscriptions and a few events per period: one read each.
    const rows = await db
      .select({ subscription: userSubscriptions, plan: subscriptionPlans.name })
      .from(userSubscriptions)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, userSubscriptions.planId))
      .where(eq(userSubscriptions.userId, userId))
      .orderBy(asc(userSubscriptions.createdAt));
    await out.write('{\n  "subscriptions": ');
    await writeArray(
      out,
      (async function* () {
        for (const { subscription: s, plan } of rows) {
          yield {
            id: s.id,
            plan,
            status: s.status,
            price: toMajor(s.priceMinor),
            currency: s.currency,
            currentPeriodStart: iso(s.currentPeriodStart),
            currentPeriodEnd: iso(s.currentPeriodEnd),
            cancelAtPeriodEnd: s.cancelAtPeriodEnd,
            canceledAt: iso(s.canceledAt),
            createdAt: iso(s.createdAt),
          };
        }
      })(),
    );
    await out.write('  ,"history": ');
    const pages = keysetPages((after: { pk: string } | undefined) =>
      db
        .select()
        .from(subscriptionEvents)
        .where(
          and(
            eq(subscriptionEvents.userId, userId),
            afterKey(
              subscriptionEvents,
              subscriptionEvents.timestamp,
              subscriptionEvents.id,
              subscriptionEvents.id,
              after,
            ),
          ),
        )
        .orderBy(asc(subscriptionEvents.timestamp), asc(subscriptionEvents.id))
        .limit(EXPORT_PAGE_SIZE)
        .then((events) => events.map((event) => ({ ...event, pk: event.id }))),
    );
    await writeArray(
      out,
      flatten(pages, (events) =>
        events.map((event) => ({
          subscriptionId: event.subscriptionId,
          plan: event.planName,
          eventType: event.eventType,
          status: event.status,
          startDate: iso(event.startDate),
          endDate: iso(event.endDate),
          amount: toMajor(event.amountMinor),
          currency: event.currency,
          autoRenew: event.autoRenew,
          timestamp: iso(event.timestamp),
        })),
      ),
    );
    await out.write("}\n");
  },
};

const usage: ExportKind = {
  file: "usage.json",
  title: "Your use per day (UTC): messages answered, voice characters and replies outside calls",
  fields: {
    chat: "Each day: day, messages (answered messages counted against the daily free ones)",
    voice: "Each day: day, synthesizedCharacters, llmCalls",
  },
  async write(out, { db, userId }) {
    // One row per day of use: a few thousand at most.
    const chat = await db
      .select({ day: chatDailyUsage.day, messages: chatDailyUsage.count })
      .from(chatDailyUsage)
      .where(eq(chatDailyUsage.userId, userId))
      .orderBy(asc(chatDailyUsage.day));
    const voice = await db
      .select({
        day: voiceDailyUsage.day,
        synthesizedCharacters: voiceDailyUsage.synthesizedCharacters,
        llmCalls: voiceDailyUsage.llmCalls,
      })
      .from(voiceDailyUsage)
      .where(eq(voiceDailyUsage.userId, userId))
      .orderBy(asc(voiceDailyUsage.day));
    await out.write(`${JSON.stringify({ chat, voice }, null, 2)}\n`);
  },
};

/**
 * Every kind of the export, one file each, in this order. Add a kind here (consents, for
 * example) and it is in every export and in the README.
 */
export const EXPORT_KINDS: readonly ExportKind[] = [
  profile,
  conversationList,
  messages,
  calls,
  memory,
  creditLedgerKind,
  paymentsKind,
  subscriptions,
  consents,
  notices,
  usage,
];

/** The README of the ZIP: what each file holds, field by field. */
export function exportReadme(kinds: readonly ExportKind[], madeAt: Date): string {
  const sections = kinds.map((kind) => {
    const fields = Object.entries(kind.fields)
      .map(([name, meaning]) => `- \`${name}\`: ${meaning}`)
      .join("\n");
    return `## ${kind.file}\n\n${kind.title}.\n\n${fields}\n`;
  });
  return (
    "# Your data\n\n" +
    `Everything this service keeps about you, as of ${madeAt.toISOString()}. ` +
    "Each file is JSON (UTF-8); times are ISO 8601 in UTC; amounts of money are in the " +
    "currency's major unit (9.99 means 9.99 dollars).\n\n" +
    sections.join("\n")
  );
}
