import { and, asc, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  type ChatMessageRow,
  chatMessages,
  conversations,
  type TrialConversationRow,
  type TrialMessageRow,
  type TrialSitting,
  trialConversations,
  trialDailyUsage,
  trialMessages,
} from "../../db/schema/index.ts";
import { titleFrom } from "../chat/prompt.ts";

/** Which bound refused an anonymous message (TRIAL_CODES names them for the client). */
export type TrialRefusal = "used" | "address" | "global";

export class TrialLimitReached extends Error {
  constructor(readonly refusal: TrialRefusal) {
    super(`Trial refused: ${refusal}`);
  }
}

export interface TakenMessage {
  trial: Pick<TrialConversationRow, "id" | "messageCount" | "sitting">;
  /** The message begins the device's conversation. */
  starts: boolean;
}

/** A trial message in the member chat's row shape (toChatMessage reads it). */
export function asChatRow(row: TrialMessageRow): ChatMessageRow {
  return {
    id: row.id,
    conversationId: row.trialId,
    userId: "",
    sender: row.sender,
    productKind: row.productKind,
    content: row.content,
    replyFailed: false,
    createdAt: row.createdAt,
    callId: null,
    flagCategory: row.flagCategory,
    flagSource: row.flagSource,
  };
}

export function createTrialRepository(db: Database) {
  return {
    async find(deviceId: string): Promise<TrialConversationRow | undefined> {
      const [row] = await db
        .select()
        .from(trialConversations)
        .where(eq(trialConversations.deviceId, deviceId));
      return row;
    },

    async messages(trialId: string): Promise<TrialMessageRow[]> {
      return db
        .select()
        .from(trialMessages)
        .where(eq(trialMessages.trialId, trialId))
        .orderBy(asc(trialMessages.seq));
    },

    /**
     * Counts one anonymous message against every bound, in one transaction: the device's
     * allowance (its row's message_count, below `allowance`, never after the hand-over), the
     * address's and the site's messages of `day`, each raised only while below its cap. Any
     * bound reached rolls all of them back and throws TrialLimitReached naming it; parallel sends
     * cannot pass a bound (each upsert's condition is checked on the locked row).
     */
    async take(input: {
      deviceId: string;
      allowance: number;
      addressKey: string;
      day: string;
      addressCap: number;
      globalCap: number;
    }): Promise<TakenMessage> {
      return db.transaction(async (tx) => {
        const [trial] = await tx
          .insert(trialConversations)
          .values({ deviceId: input.deviceId, messageCount: 1 })
          .onConflictDoUpdate({
            target: trialConversations.deviceId,
            set: {
              messageCount: sql`${trialConversations.messageCount} + 1`,
              lastMessageAt: sql`clock_timestamp()`,
            },
            setWhere: and(
              lt(trialConversations.messageCount, input.allowance),
              isNull(trialConversations.claimedAt),
            ),
          })
          .returning({
            id: trialConversations.id,
            messageCount: trialConversations.messageCount,
            sitting: trialConversations.sitting,
          });
        if (!trial || trial.messageCount > input.allowance) throw new TrialLimitReached("used");
        const bump = async (scope: string, key: string, cap: number) => {
          const [row] = await tx
            .insert(trialDailyUsage)
            .values({ scope, key, day: input.day, count: 1 })
            .onConflictDoUpdate({
              target: [trialDailyUsage.scope, trialDailyUsage.key, trialDailyUsage.day],
              set: { count: sql`${trialDailyUsage.count} + 1` },
              setWhere: lt(trialDailyUsage.count, cap),
            })
            .returning({ count: trialDailyUsage.count });
          return row !== undefined && row.count <= cap;
        };
        if (!(await bump("address", input.addressKey, input.addressCap))) {
          throw new TrialLimitReached("address");
        }
        if (!(await bump("site", "", input.globalCap))) throw new TrialLimitReached("global");
        return { trial, starts: trial.messageCount === 1 };
      });
    },

    /** The device's message back (the reply failed, or the crisis protocol answered). */
    async giveBack(trialId: string): Promise<void> {
      await db
        .update(trialConversations)
        .set({ messageCount: sql`greatest(${trialConversations.messageCount} - 1, 0)` })
        .where(eq(trialConversations.id, trialId));
    },

    async setSitting(trialId: string, sitting: TrialSitting): Promise<void> {
      await db
        .update(trialConversations)
        .set({ sitting })
        .where(eq(trialConversations.id, trialId));
    },

    async add(
      trialId: string,
      rows: Array<
        Pick<TrialMessageRow, "sender" | "content"> &
          Partial<Pick<TrialMessageRow, "productKind" | "flagCategory" | "flagSource">>
      >,
    ): Promise<TrialMessageRow[]> {
      if (rows.length === 0) return [];
      const saved: TrialMessageRow[] = [];
      // One by one: created_at (clock_timestamp) and seq follow the order given.
      for (const row of rows) {
        const [inserted] = await db
          .insert(trialMessages)
          .values({ trialId, ...row })
          .returning();
        if (inserted) saved.push(inserted);
      }
      return saved;
    },

    /** The prompt's history: the visitor's and the persona's words, newest first, none flagged. */
    async history(trialId: string, limit: number): Promise<TrialMessageRow[]> {
      return db
        .select()
        .from(trialMessages)
        .where(
          and(
            eq(trialMessages.trialId, trialId),
            inArray(trialMessages.sender, ["user", "ai"]),
            isNull(trialMessages.flagCategory),
          ),
        )
        .orderBy(desc(trialMessages.seq))
        .limit(limit);
    },

    /**
     * The hand-over: the device's trial becomes `userId`'s conversation, in one transaction and
     * exactly once. The claim is a compare-and-set (claimed_at still null); a second or parallel
     * sign-in finds it claimed and moves nothing. The messages are inserted into the user's chat
     * in their order (flagged words stay forgotten, as the crisis protocol keeps them) and deleted
     * from the trial. Answers the new conversation's id, or null when there was nothing to move.
     */
    async claim(deviceId: string, userId: string): Promise<string | null> {
      return db.transaction(async (tx) => {
        const [trial] = await tx
          .update(trialConversations)
          .set({ claimedBy: userId, claimedAt: sql`clock_timestamp()` })
          .where(
            and(eq(trialConversations.deviceId, deviceId), isNull(trialConversations.claimedAt)),
          )
          .returning();
        if (!trial) return null;
        const moved = await tx
          .select()
          .from(trialMessages)
          .where(eq(trialMessages.trialId, trial.id))
          .orderBy(asc(trialMessages.seq));
        const first = moved.find((row) => row.sender === "user");
        if (!first) return null;
        const [conversation] = await tx
          .insert(conversations)
          .values({
            userId,
            title: titleFrom(first.content),
            startedAt: trial.startedAt,
            lastMessageAt: moved.at(-1)?.createdAt ?? trial.lastMessageAt,
            messageCount: moved.filter((row) => row.sender !== "product").length,
          })
          .returning({ id: conversations.id });
        if (!conversation) throw new Error("The conversation was not created");
        for (const row of moved) {
          await tx.insert(chatMessages).values({
            conversationId: conversation.id,
            userId,
            sender: row.sender,
            productKind: row.productKind,
            content: row.content,
            createdAt: row.createdAt,
            flagCategory: row.flagCategory,
            flagSource: row.flagSource,
            forgotten: row.flagCategory !== null && row.sender === "user",
          });
        }
        await tx.delete(trialMessages).where(eq(trialMessages.trialId, trial.id));
        return conversation.id;
      });
    },

    /** Deletes the trials (and their messages) last active before `before`, and old day counts. */
    async deleteInactiveSince(before: Date): Promise<number> {
      const gone = await db
        .delete(trialConversations)
        .where(lt(trialConversations.lastMessageAt, before))
        .returning({ id: trialConversations.id });
      await db
        .delete(trialDailyUsage)
        .where(lt(trialDailyUsage.day, before.toISOString().slice(0, 10)));
      return gone.length;
    },
  };
}

export type TrialRepository = ReturnType<typeof createTrialRepository>;
