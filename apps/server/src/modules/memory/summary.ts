import type { StreamChatRequest } from "../../providers/llm/index.ts";

/** The longest summary asked for: a few sentences. */
export const SUMMARY_MAX_TOKENS = 200;
/** The summary is refreshed once this many new messages of the fan are waiting. */
export const SUMMARY_EVERY = 5;
/** At most this many of the fan's newest words are read for one refresh. */
export const SUMMARY_INPUT_LIMIT = 200;

/**
 * The request that refreshes a fan's running summary: the summary so far and the fan's new
 * words in, a short third-person note out (name they gave, interests, what they shared).
 */
export function summaryRequest(input: {
  personaName: string;
  summary: string | null;
  words: string[];
}): Pick<StreamChatRequest, "system" | "messages"> {
  const system = [
    `You keep ${input.personaName}'s private notes about one fan, so ${input.personaName} remembers them.`,
    "Rewrite the notes to include what the fan's new messages add: the name they go by, their",
    "interests, what they shared about their life. Keep what still holds, drop small talk, never",
    "invent. Answer with the notes only: at most 120 words of plain text in the third person.",
  ].join(" ");
  const content = [
    `Notes so far: ${input.summary?.trim() || "(none yet)"}`,
    "",
    "The fan's new messages, oldest first:",
    ...input.words.map((word) => `- ${word.replace(/\s+/g, " ").trim()}`),
  ].join("\n");
  return { system, messages: [{ role: "user", content }] };
}
