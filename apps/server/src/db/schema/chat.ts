import {
  CHAT_SENDERS,
  CRISIS_CATEGORIES,
  CRISIS_SOURCES,
  PRODUCT_MESSAGE_KINDS,
} from "@twinline/contracts";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users.ts";
import { voiceCalls } from "./voice.ts";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * What counts as a fact the fan told about themselves (offline, with no model to summarise):
 * a statement in the first person, not a question. PostgreSQL regex (ARE), case-insensitive.
 */
export const SELF_DISCLOSURE_PATTERN =
  "\\m(my|mine|i am|i'm|im|i live|i work|i love|i like|i hate|i have|i've|i was|i grew|call me)\\M";

export const chatSender = pgEnum("chat_sender", CHAT_SENDERS);
export const productMessageKind = pgEnum("product_message_kind", PRODUCT_MESSAGE_KINDS);
export const crisisCategory = pgEnum("crisis_category", CRISIS_CATEGORIES);
export const crisisSource = pgEnum("crisis_source", CRISIS_SOURCES);

/**
 * One conversation of a user with the persona. `message_count` and `last_message_at` are kept
 * by the statement that inserts each message, so the admin's chat logs sort and page on indexed
 * columns without counting messages.
 */
export const conversations = pgTable(
  "conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
    messageCount: integer("message_count").notNull().default(0),
    /** Voice calls whose turns are in this conversation (kept by the call-turn insert). */
    callCount: integer("call_count").notNull().default(0),
  },
  (table) => [
    // The admin's chat logs: one index per sort, and the date-range filter on started_at.
    index("conversations_started_at_idx").on(table.startedAt),
    index("conversations_last_message_at_idx").on(table.lastMessageAt),
    index("conversations_message_count_idx").on(table.messageCount),
    index("conversations_duration_idx").on(sql`(${table.lastMessageAt} - ${table.startedAt})`),
    // A user's own list (newest first), and the join from a user to their conversations.
    index("conversations_user_last_message_idx").on(table.userId, table.lastMessageAt.desc()),
  ],
);

/**
 * Every message, the user's and the persona's. `created_at` is clock_timestamp() (advancing inside
 * a transaction), so a reply sorts after the message it answers. Two messages can still share a
 * timestamp where the clock is coarse (PGlite's WASM clock): `seq`, in insertion order, breaks ties.
 */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    sender: chatSender("sender").notNull(),
    /** Which product message this is (sender 'product' only): never in a prompt, never charged. */
    productKind: productMessageKind("product_kind"),
    content: text("content").notNull(),
    /** A user's message the persona could not answer: the chat marks it after a reload too. */
    replyFailed: boolean("reply_failed").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
    /** A turn of this voice call (the fan's transcribed words or the persona's spoken reply). */
    callId: uuid("call_id").references(() => voiceCalls.id, { onDelete: "set null" }),
    /** The fan asked the persona to forget it: never in a prompt again (recall or history). */
    forgotten: boolean("forgotten").notNull().default(false),
    /**
     * The crisis check flagged this message (issue 25): a fan's words (stored forgotten, so never
     * in a prompt or recall again), or the caring message that replaced a persona's reply.
     */
    flagCategory: crisisCategory("flag_category"),
    /** Which check decided: the moderation provider or the offline phrases. */
    flagSource: crisisSource("flag_source"),
    /** The fan's words as a search document for long-term recall (memory/repository.ts). */
    tsv: tsvector("tsv").notNull().generatedAlwaysAs(sql`to_tsvector('english', content)`),
    /** A fan's statement about themselves: listed under what the persona remembers. */
    remembered: boolean("remembered")
      .notNull()
      .generatedAlwaysAs(
        sql.raw(
          `sender = 'user' and content ~* '${SELF_DISCLOSURE_PATTERN.replaceAll("'", "''")}' and content !~ '[?]\\s*$'`,
        ),
      ),
  },
  (table) => [
    // chat_messages_recall_idx, GIN on (user_id, tsv) of the fan's own words, needs btree_gin:
    // created by hand at the end of migration 0015 after the extension.
    // What the persona remembers, newest first (the fan's memory screen).
    index("chat_messages_remembered_idx")
      .on(table.userId, table.createdAt.desc())
      .where(sql`${table.remembered} and not ${table.forgotten}`),
    // The admin's Flagged filter: conversations holding a flagged message.
    index("chat_messages_flagged_idx")
      .on(table.conversationId)
      .where(sql`${table.flagCategory} is not null`),
    // A call's transcript.
    index("chat_messages_call_idx").on(table.callId, table.createdAt, table.seq),
    // Pages and the prompt's history read the newest messages first (a backward scan), ties
    // broken by seq: with seq in the index a read stops after its rows instead of sorting all.
    index("chat_messages_user_created_seq_idx").on(table.userId, table.createdAt, table.seq),
    index("chat_messages_conversation_created_seq_idx").on(
      table.conversationId,
      table.createdAt,
      table.seq,
    ),
  ],
);

/**
 * Messages answered per user and UTC day. The free-message limit is checked and counted by one
 * INSERT … ON CONFLICT DO UPDATE … WHERE count < limit (chat/repository.ts), so parallel sends
 * cannot pass it. The sum over a user's days is their lifetime "messages sent".
 */
export const chatDailyUsage = pgTable(
  "chat_daily_usage",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] })],
);

/**
 * Crisis referrals per UTC day (issue 25, item 3): how often the caring message was given, and
 * nothing about whom. Raised in the transaction that stores the referral; the figure a yearly
 * report to a state office needs, shown in analytics and exported as CSV.
 */
export const crisisReferralsDaily = pgTable("crisis_referrals_daily", {
  day: date("day", { mode: "string" }).primaryKey(),
  referrals: integer("referrals").notNull().default(0),
});

/**
 * What the persona keeps of a fan beyond their messages: whether memory is on, and (with an LLM
 * key) a short running summary, refreshed in the background after conversations. `summarized_seq`
 * is the last message the summary has read, so a deleted summary is not rebuilt from old words.
 */
export const fanMemory = pgTable("fan_memory", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull().default(true),
  summary: text("summary"),
  summaryUpdatedAt: timestamp("summary_updated_at", { withTimezone: true }),
  summarizedSeq: bigint("summarized_seq", { mode: "number" }).notNull().default(0),
});

export type ConversationRow = typeof conversations.$inferSelect;
/** A message as the app handles it; `seq` only orders ties and never leaves the database. */
export type ChatMessageRow = Pick<
  typeof chatMessages.$inferSelect,
  "id" | "conversationId" | "userId" | "sender" | "content" | "createdAt" | "replyFailed"
> & {
  /** Which product message this is (sender 'product' only). */
  productKind?: (typeof chatMessages.$inferSelect)["productKind"];
  flagCategory?: (typeof chatMessages.$inferSelect)["flagCategory"];
  flagSource?: (typeof chatMessages.$inferSelect)["flagSource"];
  callId?: string | null;
  /** The call's duration in seconds once it ended (a call turn's only). */
  callDuration?: number | null;
};
export type FanMemoryRow = typeof fanMemory.$inferSelect;
