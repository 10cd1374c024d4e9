import { aiNoticeText, BREAK_REMINDER_TEXT, type ProductMessageKind } from "@twinline/contracts";
import { eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  type ChatMessageRow,
  chatMessages,
  conversations,
  fanSittings,
} from "../../db/schema/index.ts";
import type { Clock } from "../../lib/clock.ts";
import type { SettingsService } from "../settings/service.ts";
import { CALL_CONVERSATION_TITLE, toMessageRow } from "./repository.ts";
import { type Sitting, type SittingStep, stepSitting } from "./sitting.ts";

/** The product messages one activity gave (none, or the notice and maybe a break reminder). */
export interface GivenNotices {
  messages: ChatMessageRow[];
  /** When the next notice or reminder falls due if the fan goes on (app clock, ms). */
  nextDueAt: number;
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * The AI notice and the break reminder (issue 25 items 1 and 6;
 * docs/decisions/0058-ai-notice-and-sittings.md). Each activity of the fan (a chat message, a
 * call opened, a live call's heartbeat) moves their sitting on, under a row lock, and the
 * notices that fall due are stored as product messages in the same transaction: given exactly
 * once, whichever instance served the fan. They are never sent to the model, never counted as
 * the fan's messages and cost nothing; there is no setting that turns them off.
 */
export function createAiNotices(options: {
  db: Database;
  clock: Clock;
  settings: Pick<SettingsService, "get">;
}) {
  const { db, clock, settings } = options;

  /** The texts of a step's notices, the notice first. */
  const textsOf = async (step: SittingStep) => {
    if (!step.notice) return [];
    const name = (await settings.get()).aiProfile.name;
    const texts: Array<{ kind: ProductMessageKind; content: string }> = [
      { kind: "ai-notice", content: aiNoticeText(name) },
    ];
    if (step.breakReminder) texts.push({ kind: "break-reminder", content: BREAK_REMINDER_TEXT });
    return texts;
  };

  /** Locks the fan's sitting, moves it to now and answers what falls due. */
  const step = async (tx: Transaction, userId: string, starts: boolean): Promise<SittingStep> => {
    const epoch = new Date(0);
    await tx
      .insert(fanSittings)
      .values({ userId, startedAt: epoch, lastActiveAt: epoch, noticeAt: epoch, breakAt: epoch })
      .onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(fanSittings)
      .where(eq(fanSittings.userId, userId))
      .for("update");
    const previous: Sitting | undefined =
      row && row.lastActiveAt.getTime() > 0
        ? {
            startedAt: row.startedAt.getTime(),
            lastActiveAt: row.lastActiveAt.getTime(),
            noticeAt: row.noticeAt.getTime(),
            breakAt: row.breakAt.getTime(),
          }
        : undefined;
    const next = stepSitting(previous, clock.now(), starts);
    await tx
      .update(fanSittings)
      .set({
        startedAt: new Date(next.sitting.startedAt),
        lastActiveAt: new Date(next.sitting.lastActiveAt),
        noticeAt: new Date(next.sitting.noticeAt),
        breakAt: new Date(next.sitting.breakAt),
      })
      .where(eq(fanSittings.userId, userId));
    return next;
  };

  const insertAll = async (
    tx: Transaction,
    texts: Array<{ kind: ProductMessageKind; content: string }>,
    insert: (kind: ProductMessageKind, content: string) => SQL,
  ): Promise<ChatMessageRow[]> => {
    const rows: ChatMessageRow[] = [];
    for (const { kind, content } of texts) {
      const result = (await tx.execute(insert(kind, content))) as unknown as {
        rows: Record<string, unknown>[];
      };
      // The conversation went away meanwhile (deleted): nothing to give it in.
      if (result.rows[0]) rows.push(toMessageRow(result.rows[0]));
    }
    return rows;
  };

  const returning = sql.raw(
    "returning id, conversation_id, user_id, sender, product_kind, content, call_id, to_json(created_at) #>> '{}' as created_at",
  );

  return {
    clock,

    /**
     * The fan sent a chat message (already stored) into `conversationId`; `starts`: it began
     * that conversation. The notices due are stored after it, before the persona's reply.
     * They do not move the conversation's message count (fan and persona messages only).
     */
    async forChatMessage(
      userId: string,
      conversationId: string,
      starts: boolean,
    ): Promise<GivenNotices> {
      return db.transaction(async (tx) => {
        const next = await step(tx, userId, starts);
        const messages = await insertAll(
          tx,
          await textsOf(next),
          (kind, content) => sql`
            insert into ${chatMessages} (conversation_id, user_id, sender, product_kind, content)
            select id, user_id, 'product', ${kind}, ${content} from ${conversations}
            where id = ${conversationId} and user_id = ${userId}
            ${returning}`,
        );
        return { messages, nextDueAt: next.nextDueAt };
      });
    },

    /**
     * A live call's activity: `starts` when it opens, else its heartbeat. The notices due are
     * stored as turns of the call, in the conversation its turns join (the fan's most recently
     * active one, or a new "Voice call" conversation), counted as that conversation's call.
     */
    async forCall(userId: string, callId: string, starts: boolean): Promise<GivenNotices> {
      return db.transaction(async (tx) => {
        const next = await step(tx, userId, starts);
        const messages = await insertAll(
          tx,
          await textsOf(next),
          (kind, content) => sql`
            with target as (
              select id from ${conversations} where user_id = ${userId}
              order by last_message_at desc limit 1
            ),
            created as (
              insert into ${conversations} (user_id, title, message_count, call_count)
              select ${userId}, ${CALL_CONVERSATION_TITLE}, 0, 1
              where not exists (select 1 from target)
              returning id
            ),
            moved as (
              update ${conversations}
              set call_count = call_count + case when exists (
                select 1 from ${chatMessages} where call_id = ${callId} and conversation_id = ${conversations}.id
              ) then 0 else 1 end
              where id in (select id from target)
              returning id
            ),
            c as (select id from moved union all select id from created)
            insert into ${chatMessages} (conversation_id, user_id, sender, product_kind, content, call_id)
            select c.id, ${userId}, 'product', ${kind}, ${content}, ${callId} from c
            ${returning}`,
        );
        return { messages, nextDueAt: next.nextDueAt };
      });
    },
  };
}

export type AiNotices = ReturnType<typeof createAiNotices>;
