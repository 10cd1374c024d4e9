// The fan's account, consents and notification choices, as files of the export.
import { and, asc, eq } from "drizzle-orm";
import {
  chatMessages,
  checkoutConsents,
  pushNotices,
  pushPreferences,
  pushSubscriptions,
  users,
} from "../../db/schema/index.ts";
import { toMajor } from "../../lib/money.ts";
import { EXPORT_PAGE_SIZE, type ExportKind, iso, writeArray } from "./export-format.ts";
import { messagePages } from "./export-kinds-chat.ts";

export const profile: ExportKind = {
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

/** What the fan agreed to at each checkout (issue 26 item 3): few rows, read at once. */
export const consents: ExportKind = {
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

export const notices: ExportKind = {
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

/**
 * Web Push (docs/decisions/0082): the fan's choices and devices. A device's endpoint is the push
 * service's address for that browser: shown by its host only, the rest is a capability URL.
 */
export const pushNotifications: ExportKind = {
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
