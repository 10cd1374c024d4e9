import { createRequire } from "node:module";
import { type ChatTurn, composeSystemPrompt } from "../../providers/llm/index.ts";

/**
 * What the model is given at most: system text, history and the new message, counted with the
 * model family's tokenizer (o200k, gpt-4o). With REPLY_MAX_TOKENS it stays far inside the
 * smallest context the app talks to; docs/decisions/0044-memory-and-prompt-budget.md.
 */
export const CONTEXT_BUDGET_TOKENS = 6_000;
/** The longest reply asked for. */
export const REPLY_MAX_TOKENS = 1_024;
/** How many knowledge passages go into the system text. */
export const PASSAGE_LIMIT = 4;
/** How many recent messages are read to fill the history budget. */
export const HISTORY_FETCH_LIMIT = 60;
/** The newest history kept before anything else is added: the thread of the conversation. */
export const RECENT_HISTORY_FLOOR = 4;
/** Role and framing each message costs beyond its text (OpenAI's chat format). */
const TOKENS_PER_TURN = 4;
/** The instructions never take more than this share of the budget. */
const INSTRUCTIONS_SHARE = 0.5;

/**
 * Counted texts: a fan's history is mostly the same from one send to the next, so most counts
 * are looked up, not tokenised again. Emptied when full (a bound, not an LRU).
 */
const counted = new Map<string, number>();
const COUNTED_MAX = 20_000;

// gpt-tokenizer's o200k encoding is megabytes of code to compile and a table to build: about a
// third of a second of the main thread, which a start paid before its first answer (issue 28).
// Loaded at the first count instead, synchronously (its CommonJS build), so counting stays sync.
const requireModule = createRequire(import.meta.url);
let countTokens: ((text: string) => number) | undefined;

/** Tokens of a text, as the model counts them. */
export function tokensOf(text: string): number {
  if (!text) return 0;
  const known = counted.get(text);
  if (known !== undefined) return known;
  countTokens ??= (requireModule("gpt-tokenizer") as typeof import("gpt-tokenizer")).countTokens;
  const tokens = countTokens(text);
  if (counted.size >= COUNTED_MAX) counted.clear();
  counted.set(text, tokens);
  return tokens;
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
  /** What the persona remembers of this fan: the running summary, recalled words (best first). */
  memory?: { summary: string | null; recalled: string[] } | undefined;
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

/** The instructions cut to at most `max` tokens (whole words), when an admin wrote a novel. */
function clipToTokens(text: string, max: number): string {
  if (tokensOf(text) <= max) return text;
  let words = text.split(/(?<=\s)/u);
  // Halve until it fits, then add words back one by one: a few counts, never one per word.
  while (words.length > 1 && tokensOf(words.join("")) > max) {
    words = words.slice(0, Math.ceil(words.length / 2));
  }
  return words.join("").trimEnd();
}

const toTurn = (entry: HistoryMessage): ChatTurn => ({
  role: entry.sender === "ai" ? "assistant" : "user",
  content: entry.content,
});

/**
 * The LLM request within the token budget. Always: the persona line, the instructions (cut to
 * half the budget at most) and the new message. Then, while they fit, in this order: the newest
 * RECENT_HISTORY_FLOOR messages, the fan's summary, the knowledge passages best first, the
 * recalled words best first, and the rest of the history newest first. Under pressure the
 * reverse order is what goes: older history first, then recall, then knowledge, then the summary,
 * then the recent floor. History is always an unbroken run up to the new message.
 */
export function buildChatRequest(parts: ChatRequestParts): ChatRequest {
  const budget = parts.budgetTokens ?? CONTEXT_BUDGET_TOKENS;
  const messageCost = tokensOf(parts.message) + TOKENS_PER_TURN;
  const instructions = clipToTokens(
    parts.systemPrompt,
    Math.max(0, Math.floor(budget * INSTRUCTIONS_SHARE)),
  );
  const base = composeSystemPrompt({
    personaName: parts.personaName,
    instructions,
    passages: [],
  });
  let left = budget - tokensOf(base) - messageCost - TOKENS_PER_TURN;
  const take = (cost: number) => {
    if (cost > left) return false;
    left -= cost;
    return true;
  };

  const history = parts.history;
  const historyCost = (entry: HistoryMessage) => tokensOf(entry.content) + TOKENS_PER_TURN;
  let kept = 0;
  const keepHistory = (upTo: number) => {
    while (kept < Math.min(upTo, history.length)) {
      const entry = history[history.length - 1 - kept];
      if (!entry || !take(historyCost(entry))) return false;
      kept += 1;
    }
    return true;
  };
  const floorKept = keepHistory(RECENT_HISTORY_FLOOR);

  // A line costs its text, its marker and its line break; a section its heading once (20 is
  // more than either heading takes).
  const HEADING = 20;
  const lineCost = (text: string) => tokensOf(text) + 4;
  let memoryHeading = false;
  const section = (cost: number) => {
    if (memoryHeading) return take(cost);
    if (!take(cost + HEADING)) return false;
    memoryHeading = true;
    return true;
  };
  const summary =
    parts.memory?.summary && section(lineCost(parts.memory.summary)) ? parts.memory.summary : null;
  const passages: string[] = [];
  let passagesHeading = false;
  for (const passage of parts.passages) {
    const cost = lineCost(passage) + (passagesHeading ? 0 : HEADING);
    if (!take(cost)) break;
    passagesHeading = true;
    passages.push(passage);
  }
  const recalled: string[] = [];
  for (const memory of parts.memory?.recalled ?? []) {
    if (!section(lineCost(memory))) break;
    recalled.push(memory);
  }
  if (floorKept) keepHistory(history.length);

  const system = composeSystemPrompt({
    personaName: parts.personaName,
    instructions,
    passages,
    summary: summary ?? undefined,
    memories: recalled,
  });
  const turns = history.slice(history.length - kept).map(toTurn);
  return { system, messages: [...turns, { role: "user", content: parts.message }] };
}

/** A conversation's title: its first words, at most 60 characters. */
export function titleFrom(message: string): string {
  const words = message.trim().split(/\s+/u).slice(0, 8).join(" ");
  return words.length > 60 ? `${words.slice(0, 59).trimEnd()}…` : words;
}
