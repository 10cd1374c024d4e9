import { bindFirst } from "../../lib/bind-first.ts";
import { type ChatServiceOptions, chatDeps } from "./service/deps.ts";
import {
  allChatLogs,
  chatLogs,
  chatUsage,
  clearHistory,
  conversationMessages,
  conversations,
  deleteConversation,
  userMessages,
} from "./service/reads.ts";
import { prepareSend, replyTo } from "./service/send.ts";

export {
  type ChatServiceOptions,
  type CrisisSend,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  type PreparedSend,
} from "./service/deps.ts";
export {
  type ChatLlm,
  knowledgeFor,
  type MemorySource,
  type PersonaSource,
  type ReplyOptions,
  type StreamedReply,
  streamReply,
} from "./service/model.ts";
export { CONVERSATIONS_LIMIT } from "./service/reads.ts";
export { ClientGoneError } from "./service/send.ts";
export { speakerOf, toChatLog, toChatMessage, toConversation } from "./service/views.ts";

/**
 * The text chat: a fan's send and its reply (service/send.ts), their history and usage, the
 * admin's chat logs (service/reads.ts), each use case bound to the options.
 */
export function createChatService(options: ChatServiceOptions) {
  const deps = chatDeps(options);
  return {
    /** Where a live call's turns join the fan's conversation (voice reads and writes them here). */
    callTurnStore: options.repository,
    ...bindFirst(deps, {
      prepare: prepareSend,
      reply: replyTo,
      usage: chatUsage,
      userMessages,
      conversations,
      conversationMessages,
      deleteConversation,
      clearHistory,
      chatLogs,
      allChatLogs,
    }),
  };
}

export type ChatService = ReturnType<typeof createChatService>;
