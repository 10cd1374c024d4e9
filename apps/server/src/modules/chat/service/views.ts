import {
  type ChatLog,
  type ChatMessage,
  type Conversation,
  PRODUCT_KIND_LABELS,
} from "@twinline/contracts";
import type { ChatMessageRow, ConversationRow } from "../../../db/schema/index.ts";
import type { ChatLogRow, TranscriptRow } from "../repository.ts";

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

/** A call transcript as the CSV export writes it: a "<speaker>: <words>" line per turn. */
export function transcriptText(turns: readonly TranscriptRow[], character: string): string {
  return turns.map((turn) => `${speakerOf(turn, character)}: ${turn.content}`).join("\n");
}
