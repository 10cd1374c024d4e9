import { describe, expect, it } from "vitest";
import { isUnfinished } from "./unfinished.ts";

// [words so far, recogniser punctuates, unfinished]
const ROWS: [string, boolean, boolean][] = [
  // A sentence's end: finished.
  ["How are you today?", true, false],
  ["I was thinking about going to the beach tomorrow.", true, false],
  ["That is amazing!", true, false],
  ['He said "hello."', true, false],
  ["I love you (really).", true, false],
  // Questions and exclamations end on any word.
  ["Where are you from?", true, false],
  ["What are you thinking about?", true, false],
  // Ends on a conjunction, a preposition or an article: unfinished, even with Whisper's period.
  ["I was thinking about", true, true],
  ["I was thinking about.", true, true],
  ["My sister and", true, true],
  ["I went there because", true, true],
  ["Could you tell me a story about the", true, true],
  ["I want to go to", true, true],
  ["We could meet at the cafe or", false, true],
  ["It was a gift from my", false, true],
  ["So I", false, true],
  // Trails off.
  ["I was thinking...", true, true],
  ["I was thinking…", false, true],
  ["Well, you know,", true, true],
  ["The thing is -", true, true],
  // No sentence end from a recogniser that punctuates: more is coming.
  ["I was thinking", true, true],
  ["The weather here is cold and rainy", true, true],
  // The same words from one that never punctuates (pocketsphinx): only the last word counts.
  ["i was thinking", false, false],
  ["the weather here is cold and rainy this week", false, false],
  ["i was thinking about", false, true],
  // Words that end sentences although they look like prepositions or pronouns.
  ["I have never done that before.", true, false],
  ["Come in.", true, false],
  ["I like that.", true, false],
  // Nothing heard: nothing to wait for.
  ["", true, false],
  ["   ", false, false],
];

describe("unfinished words", () => {
  it.each(ROWS)("%j (punctuated: %s) → unfinished: %s", (text, punctuated, unfinished) => {
    expect(isUnfinished(text, { punctuated })).toBe(unfinished);
  });
});
