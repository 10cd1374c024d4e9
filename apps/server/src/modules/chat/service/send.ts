import {
  CHAT_MESSAGES,
  countWords,
  type SendMessageRequest,
  type SendMessageResult,
} from "@twinline/contracts";
import type { UserRow } from "../../../db/schema/index.ts";
import { ageRefusal } from "../../../lib/age-gate.ts";
import { utcDay } from "../../../lib/utc-day.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { buildChatRequest, HISTORY_FETCH_LIMIT, titleFrom } from "../prompt.ts";
import { crisisSend, replacedReply } from "./crisis-turns.ts";
import {
  type ChatDeps,
  type CrisisSend,
  giveBack,
  isSubscriber,
  notFound,
  type PreparedSend,
} from "./deps.ts";
import { knowledgeFor, type ReplyOptions, streamReply } from "./model.ts";
import { toChatMessage } from "./views.ts";

/** The user went away before the reply was done (nothing more reaches them): nginx's 499. */
export class ClientGoneError extends HttpError {
  constructor() {
    super(499, "Client closed the request");
    this.name = "ClientGoneError";
  }
}

/**
 * The rules, then the message: refused when blank, too long, over today's free messages
 * (403 with dailyLimit), or sent to a conversation that is not the user's (404, the count
 * given back); counted and saved otherwise, with the LLM request built. Everything that can
 * refuse happens here, before any reply begins.
 */
export async function prepareSend(
  deps: ChatDeps,
  user: UserRow,
  body: SendMessageRequest,
): Promise<PreparedSend | CrisisSend> {
  const { repository, persona } = deps;
  const current = await deps.settings.get();
  // An account made before sign-up asked gives its date of birth first (decision 0054).
  const refusal = ageRefusal(user.dateOfBirth, current.minimumAge);
  if (refusal) throw refusal;
  const message = body.message.trim();
  if (!message) throw new HttpError(400, CHAT_MESSAGES.emptyMessage);
  if (countWords(message) > current.maxWordsPerMessage) {
    throw new HttpError(400, CHAT_MESSAGES.tooManyWords(current.maxWordsPerMessage));
  }
  const limit = isSubscriber(deps, user) ? null : current.freeMessagesPerDay;
  const day = utcDay(deps.now());
  // The crisis check comes before the count and the model: a flagged message costs nothing.
  const crisis = await crisisSend(deps, user, body, message, limit, day);
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
      deps.notices?.forChatMessage(user.id, saved.conversationId, !body.conversationId),
      persona.systemPrompt(),
      knowledgeFor(persona, message, deps.log),
      deps.memory?.recall(user.id, message, [
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
    await giveBack(deps, taken);
    throw error;
  }
}

/**
 * Asks the provider and saves its reply. A failure (error, timeout, empty reply) gives the
 * free message back and throws 502; the user's message stays. A client that goes away
 * aborts the provider request: a reply already partly delivered is saved as far as it
 * went and stays counted, one with nothing delivered is dropped and given back
 * (docs/decisions/0011-chat-limits.md). Throws ClientGoneError then.
 */
export async function replyTo(
  deps: ChatDeps,
  prepared: PreparedSend | CrisisSend,
  replyOptions: ReplyOptions = {},
): Promise<SendMessageResult> {
  const { repository, log } = deps;
  if ("crisis" in prepared) {
    replyOptions.onToken?.(prepared.crisis.response);
    return prepared.crisis;
  }
  const { text, failure, clientGone, timedOut } = await streamReply(
    deps.llm,
    prepared.request,
    replyOptions,
    deps.providerTimeoutMs,
  );
  if (clientGone) {
    if (text) {
      await repository
        .addMessage(prepared.conversationId, prepared.user.id, "ai", text)
        .catch((error) => log.error({ err: error }, "Could not save a partial reply"));
    } else {
      await giveBack(deps, prepared);
    }
    throw new ClientGoneError();
  }
  if (failure !== undefined || timedOut || !text.trim()) {
    log.error({ err: failure, timedOut, empty: !text.trim() }, "The AI provider failed");
    await giveBack(deps, prepared);
    await repository
      .markReplyFailed(prepared.userMessage._id, prepared.user.id)
      .catch((error) => log.error({ err: error }, "Could not mark a failed reply"));
    throw new HttpError(502, CHAT_MESSAGES.aiFailure);
  }

  const replaced = await replacedReply(
    deps,
    prepared,
    text,
    replyOptions.signal ?? new AbortController().signal,
  );
  if (replaced) return replaced;
  const saved = await repository.addMessage(prepared.conversationId, prepared.user.id, "ai", text);
  if (!saved) throw notFound();
  deps.memory?.noteActivity(prepared.user.id);
  deps.onReplySaved?.(prepared.user.id, prepared.conversationId, saved.id);
  return {
    response: text,
    conversationId: prepared.conversationId,
    userMessage: prepared.userMessage,
    aiMessage: toChatMessage(saved),
    remaining: prepared.remaining,
    notices: prepared.notices,
  };
}
