import { parseSystemPrompt } from "./system-prompt.ts";
import type { LlmProvider, StreamChatRequest } from "./types.ts";

export const OFFLINE_MODEL = "twinline-offline";

const STOP_WORDS = new Set(
  "a an and are as at be but by can do does for from how i in is it me my of on or so that the this to was what when where which who why will with you your".split(
    " ",
  ),
);

const wordsOf = (text: string) =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (word) => word.length > 1 && !STOP_WORDS.has(word),
  );

/** The passage sharing most words with the question (ties: the earlier, better ranked one). */
function bestPassage(question: string, passages: string[]): string | undefined {
  const asked = new Set(wordsOf(question));
  let best: { passage: string; score: number } | undefined;
  for (const passage of passages) {
    const score = new Set(wordsOf(passage).filter((word) => asked.has(word))).size;
    if (score > 0 && (!best || score > best.score)) best = { passage, score };
  }
  return best?.passage;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const sentenceEnd = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("! "), cut.lastIndexOf("? "));
  return sentenceEnd > max / 2
    ? cut.slice(0, sentenceEnd + 1)
    : `${cut.slice(0, cut.lastIndexOf(" "))}…`;
}

/** The deterministic answer of the offline responder (exported for tests and the voice call). */
export function offlineAnswer(request: Pick<StreamChatRequest, "system" | "messages">): string {
  const { personaName, passages, memories = [] } = parseSystemPrompt(request.system);
  const question =
    [...request.messages].reverse().find((turn) => turn.role === "user")?.content ?? "";
  const intro = `(Offline mode) Hi, I'm ${personaName}.`;
  // What the fan told before comes first: it is what they are asking back about.
  const memory = bestPassage(question, memories);
  if (memory) return `${intro} You told me before: "${clip(memory, 600)}"`;
  const passage = bestPassage(question, passages);
  if (passage) {
    return `${intro} Here is what I can tell you about that: ${clip(passage, 600)}`;
  }
  return `${intro} I'm running without a language model right now, so I can only answer from my knowledge documents, and they say nothing about that yet. Ask me something else!`;
}

/** Answers in the persona's voice from the system text, with no network and no key. */
export function createOfflineLlm(): LlmProvider {
  return {
    mode: "offline",
    async listModels() {
      return [OFFLINE_MODEL];
    },
    async *streamChat(request) {
      const answer = offlineAnswer(request);
      // Word by word, each piece keeping its following space, so the pieces join to the answer.
      for (const piece of answer.match(/\S+\s*/g) ?? []) {
        if (request.signal?.aborted) return;
        yield piece;
      }
    },
  };
}
