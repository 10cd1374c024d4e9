import { type ChatTurn, composeSystemPrompt } from "../../providers/llm/index.ts";

/** What the model is given at most: system text, history and the new message (estimated). */
export const CONTEXT_BUDGET_TOKENS = 6_000;
/** The longest reply asked for. */
export const REPLY_MAX_TOKENS = 1_024;
/** How many knowledge passages go into the system text. */
export const PASSAGE_LIMIT = 4;
/** How many recent messages are read to fill the history budget. */
export const HISTORY_FETCH_LIMIT = 60;
/** Role and framing each message costs beyond its text. */
const TOKENS_PER_TURN = 4;

/** A rough token count (about four characters a token in English), rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface HistoryMessage {
  sender: "user" | "ai";
  content: string;
}

export interface ChatRequestParts {
  /** settings.aiProfile.name */
  personaName: string;
  /** The admin's system prompt (AI training). */
  systemPrompt: string;
  /** The best knowledge passages for the message, best first. */
  passages: string[];
  /** Earlier messages of the conversation, oldest first, without the new message. */
  history: HistoryMessage[];
  /** The new message. */
  message: string;
  budgetTokens?: number;
}

export interface ChatRequest {
  system: string;
  /** Oldest first; the last one is the new message. */
  messages: ChatTurn[];
}

/**
 * The LLM request: the system text (persona name, system prompt, passages), then as much of the
 * most recent history as fits what is left of the budget, in order, then the new message. The
 * history is taken newest first and stops at the first message that does not fit, so it is
 * always an unbroken run up to the new message.
 */
export function buildChatRequest(parts: ChatRequestParts): ChatRequest {
  const system = composeSystemPrompt({
    personaName: parts.personaName,
    instructions: parts.systemPrompt,
    passages: parts.passages,
  });
  const budget = parts.budgetTokens ?? CONTEXT_BUDGET_TOKENS;
  let left = budget - estimateTokens(system) - estimateTokens(parts.message) - 2 * TOKENS_PER_TURN;
  const kept: ChatTurn[] = [];
  for (let i = parts.history.length - 1; i >= 0; i--) {
    const entry = parts.history[i];
    if (!entry) continue;
    const cost = estimateTokens(entry.content) + TOKENS_PER_TURN;
    if (cost > left) break;
    left -= cost;
    kept.push({ role: entry.sender === "ai" ? "assistant" : "user", content: entry.content });
  }
  kept.reverse();
  return { system, messages: [...kept, { role: "user", content: parts.message }] };
}

/** A conversation's title: its first words, at most 60 characters. */
export function titleFrom(message: string): string {
  const words = message.trim().split(/\s+/u).slice(0, 8).join(" ");
  return words.length > 60 ? `${words.slice(0, 59).trimEnd()}…` : words;
}
