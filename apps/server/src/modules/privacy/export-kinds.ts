import { and, asc, eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable, SelectedFields } from "drizzle-orm/pg-core";
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
  pushNotices,
  pushPreferences,
  pushSubscriptions,
  subscriptionEvents,
  subscriptionPlans,
  userSubscriptions,
  users,
  voiceCalls,
  voiceDailyUsage,
} from "../../db/schema/index.ts";
import { toMajor } from "../../lib/money.ts";

/**
 * Rows read per query: a fan with 100,000 messages is read a page at a time, never at once, and
 * each page goes to the ZIP as one piece of text (bench/export).
 */
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

/**
 * Writes a JSON array, one element a line, a page of elements at a time: each page is one piece
 * of text (one push to the ZIP's compressor), `map` turning a page of rows into its elements.
 */
export async function writeArray<T>(
  out: ExportOutput,
  pages: AsyncIterable<T[]> | Iterable<T[]>,
  map: (rows: T[]) => Promise<unknown[]> | unknown[] = (rows) => rows,
): Promise<void> {
  let first = true;
  await out.write("[");
  for await (const rows of pages) {
    const elements = await map(rows);
    if (elements.length === 0) continue;
    const text = elements.map((element) => JSON.stringify(element)).join(",\n  ");
    await out.write(`${first ? "\n  " : ",\n  "}${text}`);
    first = false;
  }
  await out.write(first ? "]\n" : "\n]\n");
}

/** A row of a keyset-paged read: its key as the database holds it (see `keysetRead`). */
interface Keyed {
  keyTime: string;
  keyTie: string;
}

/**
 * One user's rows of `table` in (time, tie) order, EXPORT_PAGE_SIZE at a time, each page read on
 * the (user, time, tie) index after the last row of the one before. The key is read as text
 * beside the row's fields and compared as such: the database's microseconds, where a JS Date
 * has only milliseconds and rows of one millisecond would be read twice. The next page is
 * asked for while the one just read is written, so the database and the compression overlap.
 */
export async function* keysetRead<F extends SelectedFields>(
  db: Database,
  read: {
    table: PgTable;
    fields: F;
    user: AnyPgColumn;
    userId: string;
    time: AnyPgColumn;
    tie: AnyPgColumn;
    only?: SQL;
  },
) {
  const { table, time, tie } = read;
  // Promise.resolve: a real promise, run once (a Drizzle query runs again at each `then`).
  const page = (after: Keyed | undefined) =>
    Promise.resolve(
      db
        .select({
          ...read.fields,
          keyTime: sql<string>`${time}::text`,
          keyTie: sql<string>`${tie}::text`,
        })
        .from(table)
        .where(
          and(
            eq(read.user, read.userId),
            read.only,
            after
              ? sql`(${time}, ${tie}) > (${after.keyTime}::timestamptz, ${after.keyTie})`
              : undefined,
          ),
        )
        .orderBy(asc(time), asc(tie))
        .limit(EXPORT_PAGE_SIZE),
    );
  let next = page(undefined);
  for (;;) {
    const rows = await next;
    const full = rows.length === EXPORT_PAGE_SIZE;
    if (full) {
      next = page(rows.at(-1));
      // Awaited on the next turn; a write failing before then must not leave it unhandled.
      next.catch(() => undefined);
    }
    if (rows.length > 0) yield rows;
    if (!full) return;
  }
}

/** `items` grouped by `key`, in their order (a page's transcripts by call, refunds by payment). */
function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

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
    const pages = keysetRead(db, {
      table: conversations,
      fields: {
        id: conversations.id,
        title: conversations.title,
        startedAt: conversations.startedAt,
        lastMessageAt: conversations.lastMessageAt,
        messageCount: conversations.messageCount,
        callCount: conversations.callCount,
      },
      user: conversations.userId,
      userId,
      time: conversations.startedAt,
      tie: conversations.id,
    });
    await writeArray(out, pages, (rows) =>
      rows.map((row) => ({
        id: row.id,
        title: row.title,
        startedAt: iso(row.startedAt),
        lastMessageAt: iso(row.lastMessageAt),
        messageCount: row.messageCount,
        callCount: row.callCount,
      })),
    );
  },
};

/** A fan's messages in the order they were written, a page at a time (the user's index). */
function messagePages(db: Database, userId: string, only?: SQL) {
  return keysetRead(db, {
    table: chatMessages,
    fields: {
      id: chatMessages.id,
      createdAt: chatMessages.createdAt,
      conversationId: chatMessages.conversationId,
      sender: chatMessages.sender,
      productKind: chatMessages.productKind,
      content: chatMessages.content,
      callId: chatMessages.callId,
      replyFailed: chatMessages.replyFailed,
      forgotten: chatMessages.forgotten,
    },
    user: chatMessages.userId,
    userId,
    time: chatMessages.createdAt,
    tie: chatMessages.seq,
    only,
  });
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
    await writeArray(out, messagePages(db, userId), (rows) =>
      rows.map((row) => ({
        id: row.id,
        conversationId: row.conversationId,
        sender: row.sender,
        productKind: row.productKind,
        content: row.content,
        createdAt: iso(row.createdAt),
        callId: row.callId,
        replyFailed: row.replyFailed,
        forgotten: row.forgotten,
      })),
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
    await writeArray(out, messagePages(db, userId, eq(chatMessages.sender, "product")), (rows) =>
      rows.map((row) => ({
        id: row.id,
        kind: row.productKind,
        conversationId: row.conversationId,
        callId: row.callId,
        content: row.content,
        shownAt: iso(row.createdAt),
      })),
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
    await writeArray(out, [rows], (page) =>
      page.map((row) => ({
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
    const pages = keysetRead(db, {
      table: voiceCalls,
      fields: {
        id: voiceCalls.id,
        startedAt: voiceCalls.startedAt,
        endedAt: voiceCalls.endedAt,
        durationSeconds: voiceCalls.durationSeconds,
        minutesCharged: voiceCalls.minutesCharged,
        creditsPerMinute: voiceCalls.creditsPerMinute,
        creditsConsumed: voiceCalls.creditsConsumed,
        endReason: voiceCalls.endReason,
      },
      user: voiceCalls.userId,
      userId,
      time: voiceCalls.startedAt,
      tie: voiceCalls.id,
    });
    // A page of calls and their turns: one query for the page's transcripts (the call index).
    await writeArray(out, pages, async (page) => {
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
      const turnsOf = groupBy(turns, (turn) => turn.callId);
      return page.map((call) => ({
        id: call.id,
        startedAt: iso(call.startedAt),
        endedAt: iso(call.endedAt),
        durationSeconds: call.durationSeconds,
        minutesCharged: call.minutesCharged,
        creditsPerMinute: call.creditsPerMinute,
        creditsConsumed: call.creditsConsumed,
        endReason: call.endReason,
        transcript: (turnsOf.get(call.id) ?? []).map((turn) => ({
          sender: turn.sender,
          content: turn.content,
          createdAt: iso(turn.createdAt),
        })),
      }));
    });
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
    await writeArray(out, messagePages(db, userId, remembered), (rows) =>
      rows.map((row) => ({
        id: row.id,
        content: row.content,
        createdAt: iso(row.createdAt),
        callId: row.callId,
      })),
    );
    await out.write("}\n");
  },
};

/**
 * Web Push (docs/decisions/0082): the fan's choices and devices. A device's endpoint is the push
 * service's address for that browser: shown by its host only, the rest is a capability URL.
 */
const pushNotifications: ExportKind = {
  file: "notifications.json",
  title: "Your notification choices and the devices that receive them",
  fields: {
    preferences: "Which notifications you chose: reply, lowBalance, renewalFailed",
    devices: "Each device turned on: pushService (its push service's host), createdAt",
    sent: "Notifications sent to you: kind, createdAt",
  },
  async write(out, { db, userId }) {
    const [chosen] = await db
      .select()
      .from(pushPreferences)
      .where(eq(pushPreferences.userId, userId));
    const devices = await db
      .select({ endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(asc(pushSubscriptions.createdAt));
    const sent = await db
      .select({ kind: pushNotices.kind, createdAt: pushNotices.createdAt })
      .from(pushNotices)
      .where(and(eq(pushNotices.userId, userId), eq(pushNotices.status, "sent")))
      .orderBy(asc(pushNotices.createdAt))
      .limit(EXPORT_PAGE_SIZE);
    const value = {
      preferences: chosen
        ? {
            reply: chosen.reply,
            lowBalance: chosen.lowBalance,
            renewalFailed: chosen.renewalFailed,
          }
        : null,
      devices: devices.map((device) => ({
        pushService: new URL(device.endpoint).host,
        createdAt: iso(device.createdAt),
      })),
      sent: sent.map((notice) => ({ kind: notice.kind, createdAt: iso(notice.createdAt) })),
    };
    await out.write(`${JSON.stringify(value, null, 2)}\n`);
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
    const pages = keysetRead(db, {
      table: creditLedger,
      fields: {
        id: creditLedger.id,
        kind: creditLedger.kind,
        amount: creditLedger.amount,
        balanceAfter: creditLedger.balanceAfter,
        reference: creditLedger.sourceKey,
        details: creditLedger.metadata,
        createdAt: creditLedger.createdAt,
      },
      user: creditLedger.userId,
      userId,
      time: creditLedger.createdAt,
      tie: creditLedger.id,
    });
    await writeArray(out, pages, (rows) =>
      rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        amount: row.amount,
        balanceAfter: row.balanceAfter,
        reference: row.reference,
        details: row.details,
        createdAt: iso(row.createdAt),
      })),
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
    const pages = keysetRead(db, {
      table: payments,
      fields: getTableColumns(payments),
      user: payments.userId,
      userId,
      time: payments.transactionDate,
      tie: payments.seq,
    });
    await writeArray(out, pages, async (rows) => {
      const refunds = await db
        .select()
        .from(paymentRefunds)
        .where(
          inArray(
            paymentRefunds.paymentId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(asc(paymentRefunds.createdAt));
      const refundsOf = groupBy(refunds, (refund) => refund.paymentId);
      return rows.map((row) => ({
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
        refunds: (refundsOf.get(row.id) ?? []).map((refund) => ({
          amount: toMajor(refund.amountMinor),
          status: refund.status,
          kind: refund.kind,
          reason: refund.reason,
          createdAt: iso(refund.createdAt),
        })),
      }));
    });
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
    await writeArray(out, [rows], (page) =>
      page.map(({ subscription: s, plan }) => ({
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
      })),
    );
    await out.write('  ,"history": ');
    const pages = keysetRead(db, {
      table: subscriptionEvents,
      fields: getTableColumns(subscriptionEvents),
      user: subscriptionEvents.userId,
      userId,
      time: subscriptionEvents.timestamp,
      tie: subscriptionEvents.id,
    });
    await writeArray(out, pages, (events) =>
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
  pushNotifications,
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
