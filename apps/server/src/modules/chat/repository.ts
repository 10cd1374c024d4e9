import type { Database } from "../../db/client.ts";
import { bindFirst } from "../../lib/bind-first.ts";
import { addCallTurn, callTranscript, recentHistory } from "./repository/call-turns.ts";
import { allChatLogs, callTurnsOf, chatLogs } from "./repository/chat-logs.ts";
import {
  addMessage,
  clearHistory,
  deleteConversation,
  findConversation,
  listConversations,
  markReplyFailed,
  messagesPage,
  startConversation,
} from "./repository/conversations.ts";
import { dailyUsage, giveBackDailyMessage, sendUserMessage } from "./repository/send.ts";

export { CALL_CONVERSATION_TITLE } from "./repository/call-turns.ts";
export type { ChatLogRow } from "./repository/chat-logs.ts";
export { type HistoryRow, type TranscriptRow, toMessageRow } from "./repository/rows.ts";
export type { SendOutcome } from "./repository/send.ts";

/**
 * The chat's store: its queries, one file per use case under repository/ (each documented
 * there), bound to `db`.
 */
export function createChatRepository(db: Database) {
  return bindFirst(db, {
    // A fan's message and its daily count (repository/send.ts).
    sendUserMessage,
    giveBackDailyMessage,
    usage: dailyUsage,
    // Conversations and their messages (repository/conversations.ts).
    findConversation,
    startConversation,
    addMessage,
    markReplyFailed,
    messagesPage,
    listConversations,
    deleteConversation,
    clearHistory,
    // A call's turns in the chat (repository/call-turns.ts).
    addCallTurn,
    recentHistory,
    callTranscript,
    // The admin's chat logs and their export (repository/chat-logs.ts).
    chatLogs,
    callTurnsOf,
    allChatLogs,
  });
}

export type ChatRepository = ReturnType<typeof createChatRepository>;
