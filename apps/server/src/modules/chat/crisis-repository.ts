import type { CrisisCategoryName } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  type ChatMessageRow,
  chatMessages,
  conversations,
  crisisReferralsDaily,
} from "../../db/schema/index.ts";
import { CALL_CONVERSATION_TITLE } from "./repository.ts";

export interface StoredFlag {
  category: CrisisCategoryName;
  source: "openai" | "offline";
}

/** Where a crisis turn goes: a chat conversation of the fan, or the conversation of a live call. */
export type CrisisPlace =
  | { kind: "chat"; conversationId: string | null | undefined; title: string }
  | { kind: "call"; callId: string };

const returning = sql`returning id, conversation_id, user_id, sender, product_kind, content,
  call_id, flag_category, flag_source, to_json(created_at) #>> '{}' as created_at`;

/**
 * The statements of a crisis turn (chat/crisis.ts runs them in one transaction): the fan's
 * flagged words, the caring message, the day's referral count. Each message moves its
 * conversation's counters, as every other insert of a message does.
 */
export function crisisStatements(tx: Database) {
  const run = async (query: ReturnType<typeof sql>) =>
    ((await tx.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

  /** The conversation a turn joins: the chat's own (if it is the fan's), or the call's. */
  const conversationFor = async (userId: string, place: CrisisPlace): Promise<string | null> => {
    if (place.kind === "chat" && place.conversationId) {
      const rows = await run(sql`select id from ${conversations}
        where id = ${place.conversationId} and user_id = ${userId} for update`);
      return rows[0] ? String(rows[0].id) : null;
    }
    if (place.kind === "call") {
      // As addCallTurn: the fan's most recently active conversation; the call's own when new.
      const rows = await run(sql`select id from ${conversations} where user_id = ${userId}
        order by last_message_at desc limit 1 for update`);
      if (rows[0]) return String(rows[0].id);
    }
    const title = place.kind === "chat" ? place.title : CALL_CONVERSATION_TITLE;
    const created = await run(sql`insert into ${conversations} (user_id, title, message_count)
      values (${userId}, ${title}, 0) returning id`);
    return String(created[0]?.id);
  };

  const insert = async (input: {
    conversationId: string;
    userId: string;
    sender: "user" | "product";
    content: string;
    callId: string | null;
    flag: StoredFlag | null;
  }): Promise<ChatMessageRow> => {
    const { conversationId, userId, sender, content, callId, flag } = input;
    const rows = await run(sql`
      with c as (
        update ${conversations}
        set message_count = message_count + 1, last_message_at = clock_timestamp(),
          call_count = call_count + case when ${callId}::uuid is not null and not exists (
            select 1 from ${chatMessages} where call_id = ${callId}::uuid
              and conversation_id = ${conversationId}
          ) then 1 else 0 end
        where id = ${conversationId}
        returning id, last_message_at
      )
      insert into ${chatMessages} (conversation_id, user_id, sender, product_kind, content,
        created_at, call_id, forgotten, flag_category, flag_source)
      select c.id, ${userId}, ${sender},
        ${sender === "product" ? "crisis-support" : null}::product_message_kind, ${content},
        c.last_message_at, ${callId}::uuid, ${sender === "user"},
        ${flag?.category ?? null}::crisis_category, ${flag?.source ?? null}::crisis_source
      from c
      ${returning}`);
    return toRow(rows[0]);
  };

  return {
    conversationFor,
    /** The fan's flagged words: kept for the logs, forgotten (never in a prompt or recall). */
    addFlaggedFanMessage: (
      input: Omit<Parameters<typeof insert>[0], "sender" | "flag"> & { flag: StoredFlag },
    ) => insert({ ...input, sender: "user" }),
    /** The caring message; `flag` when it replaced a persona reply the check flagged. */
    addCrisisMessage: (input: Omit<Parameters<typeof insert>[0], "sender">) =>
      insert({ ...input, sender: "product" }),
    /** One more referral on `day` (UTC): a count, nothing about whom. */
    async countReferral(day: string): Promise<void> {
      await tx
        .insert(crisisReferralsDaily)
        .values({ day, referrals: 1 })
        .onConflictDoUpdate({
          target: crisisReferralsDaily.day,
          set: { referrals: sql`${crisisReferralsDaily.referrals} + 1` },
        });
    },
  };
}

function toRow(row: Record<string, unknown> | undefined): ChatMessageRow {
  if (!row) throw new Error("The crisis message was not saved");
  const createdAt = row.created_at;
  return {
    id: String(row.id),
    conversationId: String(row.conversation_id),
    userId: String(row.user_id),
    sender: row.sender === "product" ? "product" : "user",
    productKind: row.product_kind === "crisis-support" ? "crisis-support" : null,
    content: String(row.content),
    replyFailed: false,
    callId: row.call_id === null || row.call_id === undefined ? null : String(row.call_id),
    flagCategory: (row.flag_category as StoredFlag["category"] | null) ?? null,
    flagSource: (row.flag_source as StoredFlag["source"] | null) ?? null,
    createdAt: createdAt instanceof Date ? createdAt : new Date(String(createdAt)),
  };
}

/** Crisis referrals per UTC day over the `days` days ending `today`, every day present. */
export async function referralsByDay(
  db: Database,
  today: string,
  days: number,
): Promise<Array<{ date: string; referrals: number }>> {
  const result = (await db.execute(sql`
    select to_char(d.day, 'YYYY-MM-DD') as date, coalesce(r.referrals, 0)::int as referrals
    from generate_series(${today}::date - (${days}::int - 1), ${today}::date, interval '1 day') as d(day)
    left join ${crisisReferralsDaily} r on r.day = d.day::date
    order by d.day`)) as unknown as { rows: Array<{ date: string; referrals: number | string }> };
  return result.rows.map((row) => ({ date: String(row.date), referrals: Number(row.referrals) }));
}
