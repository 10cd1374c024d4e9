import {
  CHAT_MESSAGES,
  type ChatLog,
  type ChatLogsQuery,
  type ChatMessage,
  type ChatUsage,
  type Conversation,
  countWords,
  PRODUCT_KIND_LABELS,
  routes,
  type SendMessageRequest,
  type SendMessageResult,
} from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { ChatMessageRow, ConversationRow, UserRow } from "../../db/schema/index.ts";
import { ageRefusal } from "../../lib/age-gate.ts";
import { type PageRequest, pagination } from "../../lib/paging.ts";
import { HttpError } from "../../plugins/errors.ts";
import type { StreamChatRequest } from "../../providers/llm/index.ts";
import type { SettingsService } from "../settings/service.ts";
import { isSubscribedAccount } from "../users/subscription-state.ts";
import type { AiNotices } from "./ai-notice.ts";
import type { CrisisDesk } from "./crisis.ts";
import {
  buildChatRequest,
  type ChatRequest,
  HISTORY_FETCH_LIMIT,
  PASSAGE_LIMIT,
  REPLY_MAX_TOKENS,
  titleFrom,
} from "./prompt.ts";
import { type ChatLogRow, type ChatRepository, utcDay } from "./repository.ts";

/** The part of the LLM provider chat needs (providers/llm LlmProvider fits it). */
export interface ChatLlm {
  streamChat(request: StreamChatRequest): AsyncIterable<string>;
}

/** What the persona remembers of a fan (memory/service.ts fits it). */
export interface MemorySource {
  /** The fan's summary and their own earlier words matching `message`, none of `exclude`. */
  recall(
    userId: string,
    message: string,
    exclude: string[],
  ): Promise<{ summary: string | null; recalled: string[] }>;
  /** A conversation moved on: the summary may be refreshed in the background. */
  noteActivity(userId: string): void;
}

/** What the persona knows: the admin's system prompt and the knowledge retrieval. */
export interface PersonaSource {
  systemPrompt(): Promise<string>;
  passages(question: string, limit: number): Promise<string[]>;
}

/** The passages for a message (chat, trial and call alike): retrieval trouble costs the knowledge, not the reply. */
export async function knowledgeFor(
  persona: PersonaSource,
  message: string,
  log: Pick<FastifyBaseLogger, "warn">,
): Promise<string[]> {
  try {
    return await persona.passages(message, PASSAGE_LIMIT);
  } catch (error) {
    log.warn({ err: error }, "Knowledge retrieval failed; answering without passages");
    return [];
  }
}

export interface ChatServiceOptions {
  repository: ChatRepository;
  settings: Pick<SettingsService, "get">;
  /** The LLM in force for this call (stored key, environment, else offline). */
  llm: () => Promise<ChatLlm>;
  persona: PersonaSource;
  /** Long-term memory; absent: the persona remembers only the history window. */
  memory?: MemorySource;
  /** Told of each saved reply (the push notification of a reply while the fan is away). */
  onReplySaved?: (userId: string, conversationId: string, messageId: string) => void;
  /** The whole reply must arrive within this (default 60 s); else 502. */
  providerTimeoutMs?: number;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** The AI notice and break reminders (ai-notice.ts); absent: none are given (unit tests only). */
  notices?: Pick<AiNotices, "forChatMessage">;
  /** The crisis check before the model (issue 25); absent: none (unit setups only). */
  crisis?: CrisisDesk;
}

/** The user went away before the reply was done (nothing more reaches them): nginx's 499. */
export class ClientGoneError extends HttpError {
  constructor() {
    super(499, "Client closed the request");
    this.name = "ClientGoneError";
  }
}

/** A message taken, counted and saved, whose reply is still to come. */
export interface PreparedSend {
  user: UserRow;
  day: string;
  /** Whether the message was counted against today's free messages. */
  counted: boolean;
  remaining: number | "unlimited";
  conversationId: string;
  userMessage: ChatMessage;
  /** Product messages given with this message (the AI notice, a break reminder). */
  notices: ChatMessage[];
  request: ChatRequest;
}

/** A message the crisis check flagged: answered with the caring message, nothing counted. */
export interface CrisisSend {
  crisis: SendMessageResult;
}

export interface ReplyOptions {
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
  onToken?: (text: string) => void;
}

export const DEFAULT_PROVIDER_TIMEOUT_MS = 60_000;
/** At most this many conversations are listed (the most recently active). */
export const CONVERSATIONS_LIMIT = 100;

/** A message as the API shows it; `withFlag`: the admin's logs, which mark flagged messages. */
export function toChatMessage(row: ChatMessageRow, withFlag = false): ChatMessage {
  return {
    _id: row.id,
    conversationId: row.conversationId,
    sender: row.sender,
    ...(row.productKind ? { productKind: row.productKind } : {}),
    ...(withFlag && row.flagCategory && row.flagSource
      ? { flag: { category: row.flagCategory, source: row.flagSource } }
      : {}),
    content: row.content,
    timestamp: row.createdAt.toISOString(),
    ...(row.replyFailed ? { replyFailed: true } : {}),
    ...(row.callId ? { callId: row.callId, callDuration: row.callDuration ?? null } : {}),
  };
}

export function toConversation(row: ConversationRow): Conversation {
  return {
    _id: row.id,
    title: row.title,
    startedAt: row.startedAt.toISOString(),
    lastMessageAt: row.lastMessageAt.toISOString(),
    messageCount: row.messageCount,
  };
}

export function toChatLog(row: ChatLogRow, character: string): ChatLog {
  const { conversation, user } = row;
  return {
    _id: conversation.id,
    user: { _id: user.id, name: user.name, email: user.email, profileImage: user.profileImage },
    character,
    startTime: conversation.startedAt.toISOString(),
    lastMessageAt: conversation.lastMessageAt.toISOString(),
    duration: Math.max(
      0,
      Math.round((conversation.lastMessageAt.getTime() - conversation.startedAt.getTime()) / 1000),
    ),
    messageCount: conversation.messageCount,
    plan: user.subscribed ? "premium" : "standard",
    calls: conversation.callCount,
    flagged: row.flagged,
  };
}

/** Who a transcript line names: the fan, the persona, or the product's notice by its kind. */
export function speakerOf(
  turn: Pick<ChatMessageRow, "sender" | "productKind">,
  character: string,
): string {
  if (turn.sender === "product") return `[${PRODUCT_KIND_LABELS[turn.productKind ?? "ai-notice"]}]`;
  return turn.sender === "ai" ? character : "Fan";
}

/** What the model answered to one request (streamReply). */
export interface StreamedReply {
  /** The reply as far as it came. */
  text: string;
  /** The provider's error, if it failed. */
  failure: unknown;
  /** The client went away (its signal aborted). */
  clientGone: boolean;
  /** The whole reply did not arrive within the timeout. */
  timedOut: boolean;
}

/**
 * Asks the model for a reply to `request`, passing each piece to `onToken` as it streams, within
 * `timeoutMs` and until the client's signal aborts. Never throws: the caller decides what a
 * failure means (the member chat and the anonymous trial share this).
 */
export async function streamReply(
  llm: () => Promise<ChatLlm>,
  request: ChatRequest,
  replyOptions: ReplyOptions,
  timeoutMs: number,
): Promise<StreamedReply> {
  const clientSignal = replyOptions.signal ?? new AbortController().signal;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([clientSignal, timeout]);
  let text = "";
  let failure: unknown;
  try {
    const provider = await llm();
    for await (const piece of provider.streamChat({
      ...request,
      signal,
      maxTokens: REPLY_MAX_TOKENS,
    })) {
      if (signal.aborted) break;
      text += piece;
      replyOptions.onToken?.(piece);
    }
  } catch (error) {
    failure = error;
  }
  return { text, failure, clientGone: clientSignal.aborted, timedOut: timeout.aborted };
}

const notFound = () => new HttpError(404, CHAT_MESSAGES.conversationNotFound);

export function createChatService(options: ChatServiceOptions) {
  const { repository, settings, persona, log } = options;
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;

  // The account row the request loaded says it (no read of the subscriptions per message).
  const isSubscriber = (user: UserRow) => isSubscribedAccount(user, now());

  const passagesFor = (message: string) => knowledgeFor(persona, message, log);

  const giveBack = async (prepared: Pick<PreparedSend, "user" | "day" | "counted">) => {
    if (!prepared.counted) return;
    try {
      await repository.giveBackDailyMessage(prepared.user.id, prepared.day);
    } catch (error) {
      log.error({ err: error }, "Could not give back a free message");
    }
  };

  /** The caring message instead of a reply when the crisis check flags the fan's words. */
  const crisisSend = async (
    user: UserRow,
    body: SendMessageRequest,
    message: string,
    limit: number | null,
    day: string,
  ): Promise<CrisisSend | null> => {
    const desk = options.crisis;
    const flag = await desk?.check(message);
    if (!desk || !flag) return null;
    const [turn, counts] = await Promise.all([
      desk.refer({
        userId: user.id,
        place: { kind: "chat", conversationId: body.conversationId, title: titleFrom(message) },
        content: message,
        flag,
        origin: routes.chat.send.path,
      }),
      repository.usage(user.id, day),
    ]);
    if (!turn.fanMessage) throw new Error("A referred message is stored with the fan's words");
    // A conversation or sitting that starts with a crisis turn still gets its AI notice.
    const notices = await options.notices?.forChatMessage(
      user.id,
      turn.crisisMessage.conversationId,
      !body.conversationId,
    );
    return {
      crisis: {
        response: turn.crisisMessage.content,
        conversationId: turn.crisisMessage.conversationId,
        userMessage: toChatMessage(turn.fanMessage),
        aiMessage: toChatMessage(turn.crisisMessage),
        remaining: limit === null ? "unlimited" : Math.max(0, limit - counts.today),
        crisis: { resources: turn.resources },
        notices: (notices?.messages ?? []).map((row) => toChatMessage(row)),
      },
    };
  };

  /** With a key, a reply giving self-harm instructions: the caring message replaces it. */
  const replacedReply = async (
    prepared: PreparedSend,
    text: string,
    signal: AbortSignal,
  ): Promise<SendMessageResult | null> => {
    const desk = options.crisis;
    const flag = await desk?.checkReply(text, signal).catch((error: unknown) => {
      if (!signal.aborted) log.error({ err: error }, "The reply's crisis check failed");
      return null;
    });
    if (!desk || !flag) return null;
    const turn = await desk.replaceReply({
      userId: prepared.user.id,
      place: { kind: "chat", conversationId: prepared.conversationId, title: "" },
      flag,
      origin: routes.chat.send.path,
    });
    // A crisis turn costs no free message.
    await giveBack(prepared);
    const remaining = prepared.remaining;
    return {
      response: turn.crisisMessage.content,
      conversationId: prepared.conversationId,
      userMessage: prepared.userMessage,
      aiMessage: toChatMessage(turn.crisisMessage),
      remaining: typeof remaining === "number" && prepared.counted ? remaining + 1 : remaining,
      crisis: { resources: turn.resources },
    };
  };

  return {
    /** Where a live call's turns join the fan's conversation (voice reads and writes them here). */
    callTurnStore: repository,

    /**
     * The rules, then the message: refused when blank, too long, over today's free messages
     * (403 with dailyLimit), or sent to a conversation that is not the user's (404, the count
     * given back); counted and saved otherwise, with the LLM request built. Everything that can
     * refuse happens here, before any reply begins.
     */
    async prepare(user: UserRow, body: SendMessageRequest): Promise<PreparedSend | CrisisSend> {
      const current = await settings.get();
      // An account made before sign-up asked gives its date of birth first (decision 0054).
      const refusal = ageRefusal(user.dateOfBirth, current.minimumAge);
      if (refusal) throw refusal;
      const message = body.message.trim();
      if (!message) throw new HttpError(400, CHAT_MESSAGES.emptyMessage);
      if (countWords(message) > current.maxWordsPerMessage) {
        throw new HttpError(400, CHAT_MESSAGES.tooManyWords(current.maxWordsPerMessage));
      }
      const limit = isSubscriber(user) ? null : current.freeMessagesPerDay;
      const day = utcDay(now());
      // The crisis check comes before the count and the model: a flagged message costs nothing.
      const crisis = await crisisSend(user, body, message, limit, day);
      if (crisis) return crisis;
      const outcome = await repository.sendUserMessage({
        userId: user.id,
        day,
        limit,
        conversationId: body.conversationId,
        title: titleFrom(message),
        content: message,
        historyLimit: HISTORY_FETCH_LIMIT,
      });
      if (outcome.kind === "limit") {
        throw new HttpError(403, CHAT_MESSAGES.dailyLimitError, CHAT_MESSAGES.dailyLimitError, {
          dailyLimit: current.freeMessagesPerDay,
        });
      }
      const taken = { user, day, counted: true };

      try {
        if (outcome.kind === "notFound") throw notFound();
        const saved = outcome.message;
        // The notices are stored beside the prompt's reads: nothing of them reaches the model.
        const [notices, systemPrompt, passages, memory] = await Promise.all([
          options.notices?.forChatMessage(user.id, saved.conversationId, !body.conversationId),
          persona.systemPrompt(),
          passagesFor(message),
          options.memory?.recall(user.id, message, [
            saved.id,
            ...outcome.history.map((entry) => entry.id),
          ]),
        ]);
        const count = outcome.count;
        const history = [...outcome.history].reverse();
        return {
          ...taken,
          remaining: limit === null ? "unlimited" : Math.max(0, limit - count),
          conversationId: saved.conversationId,
          userMessage: toChatMessage(saved),
          notices: (notices?.messages ?? []).map((row) => toChatMessage(row)),
          request: buildChatRequest({
            personaName: current.aiProfile.name,
            systemPrompt,
            passages,
            memory,
            history,
            message,
          }),
        };
      } catch (error) {
        await giveBack(taken);
        throw error;
      }
    },

    /**
     * Asks the provider and saves its reply. A failure (error, timeout, empty reply) gives the
     * free message back and throws 502; the user's message stays. A client that goes away
     * aborts the provider request: a reply already partly delivered is saved as far as it
     * went and stays counted, one with nothing delivered is dropped and given back
     * (docs/decisions/0011-chat-limits.md). Throws ClientGoneError then.
     */
    async reply(
      prepared: PreparedSend | CrisisSend,
      replyOptions: ReplyOptions = {},
    ): Promise<SendMessageResult> {
      if ("crisis" in prepared) {
        replyOptions.onToken?.(prepared.crisis.response);
        return prepared.crisis;
      }
      const { text, failure, clientGone, timedOut } = await streamReply(
        options.llm,
        prepared.request,
        replyOptions,
        timeoutMs,
      );
      if (clientGone) {
        if (text) {
          await repository
            .addMessage(prepared.conversationId, prepared.user.id, "ai", text)
            .catch((error) => log.error({ err: error }, "Could not save a partial reply"));
        } else {
          await giveBack(prepared);
        }
        throw new ClientGoneError();
      }
      if (failure !== undefined || timedOut || !text.trim()) {
        log.error({ err: failure, timedOut, empty: !text.trim() }, "The AI provider failed");
        await giveBack(prepared);
        await repository
          .markReplyFailed(prepared.userMessage._id, prepared.user.id)
          .catch((error) => log.error({ err: error }, "Could not mark a failed reply"));
        throw new HttpError(502, CHAT_MESSAGES.aiFailure);
      }

      const replaced = await replacedReply(
        prepared,
        text,
        replyOptions.signal ?? new AbortController().signal,
      );
      if (replaced) return replaced;
      const saved = await repository.addMessage(
        prepared.conversationId,
        prepared.user.id,
        "ai",
        text,
      );
      if (!saved) throw notFound();
      options.memory?.noteActivity(prepared.user.id);
      options.onReplySaved?.(prepared.user.id, prepared.conversationId, saved.id);
      return {
        response: text,
        conversationId: prepared.conversationId,
        userMessage: prepared.userMessage,
        aiMessage: toChatMessage(saved),
        remaining: prepared.remaining,
        notices: prepared.notices,
      };
    },

    async usage(user: UserRow): Promise<ChatUsage> {
      const [current, counts] = await Promise.all([
        settings.get(),
        repository.usage(user.id, utcDay(now())),
      ]);
      const dailyLimit = current.freeMessagesPerDay;
      return {
        total: counts.total,
        sentToday: counts.today,
        dailyLimit,
        remaining: isSubscriber(user) ? "unlimited" : Math.max(0, dailyLimit - counts.today),
      };
    },

    async userMessages(user: UserRow, page: PageRequest) {
      const { rows, total } = await repository.messagesPage({ userId: user.id }, page);
      return {
        messages: rows.map((row) => toChatMessage(row)),
        pagination: pagination(total, page),
      };
    },

    async conversations(user: UserRow): Promise<Conversation[]> {
      const rows = await repository.listConversations(user.id, CONVERSATIONS_LIMIT);
      return rows.map(toConversation);
    },

    /** One conversation's messages; `userId` undefined: any user's (the admin's chat logs). */
    async conversationMessages(
      conversationId: string,
      userId: string | undefined,
      page: PageRequest,
    ) {
      const conversation = await repository.findConversation(conversationId, userId);
      if (!conversation) throw notFound();
      const { rows, total } = await repository.messagesPage({ conversationId }, page);
      // The admin's logs (no user) see which messages the crisis check flagged.
      const withFlag = userId === undefined;
      return {
        messages: rows.map((row) => toChatMessage(row, withFlag)),
        pagination: pagination(total, page),
      };
    },

    async deleteConversation(user: UserRow, conversationId: string): Promise<void> {
      if (!(await repository.deleteConversation(conversationId, user.id))) throw notFound();
    },

    async clearHistory(user: UserRow): Promise<void> {
      await repository.clearHistory(user.id);
    },

    async chatLogs(query: ChatLogsQuery) {
      const [{ rows, total }, current] = await Promise.all([
        repository.chatLogs(query),
        settings.get(),
      ]);
      return {
        logs: rows.map((row) => toChatLog(row, current.aiProfile.name)),
        pagination: pagination(total, query),
      };
    },

    /**
     * Every matching chat log, batch by batch, for the CSV export, each with its calls'
     * transcript ("Fan: …" and "<persona>: …" lines; empty without calls).
     */
    async *allChatLogs(
      query: Omit<ChatLogsQuery, "page" | "limit">,
    ): AsyncGenerator<Array<ChatLog & { transcript: string }>> {
      const character = (await settings.get()).aiProfile.name;
      for await (const rows of repository.allChatLogs(query)) {
        const withCalls = rows.filter((row) => row.conversation.callCount > 0);
        const turns = await repository.callTurnsOf(withCalls.map((row) => row.conversation.id));
        yield rows.map((row) => ({
          ...toChatLog(row, character),
          transcript: (turns.get(row.conversation.id) ?? [])
            .map((turn) => `${speakerOf(turn, character)}: ${turn.content}`)
            .join("\n"),
        }));
      }
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
