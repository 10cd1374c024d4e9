/**
 * Whether a candidate's words so far are an unfinished sentence (issue 24): people pause in the
 * middle of one ("I was thinking … about going to the beach … tomorrow"), and a pause after "I
 * was thinking about" is not the end of a turn. The client waits longer before committing such a
 * candidate (docs/decisions/0053-hesitant-speech-and-reconnect.md).
 *
 * Unfinished: the text trails off ("…", a comma, a dash); or it is not a question or an
 * exclamation and its last word is a conjunction, a preposition or an article (Whisper writes
 * "I was thinking about." for a fragment too); or, when the recogniser punctuates (Whisper does,
 * pocketsphinx never does), it has no sentence end.
 */

/**
 * Words a finished English sentence does not end on: articles and possessives, conjunctions, the
 * prepositions that are not also particles ("come in", "log out" and "before" end sentences),
 * and "I".
 */
const DANGLING_WORDS = new Set(
  [
    "a an the my your our their its every",
    "and but or nor because although though while whereas whether unless until than if",
    "about against among at between during for from into of onto per to toward towards upon " +
      "via with without despite except unlike",
    "i",
  ]
    .join(" ")
    .split(" "),
);

/** A question or an exclamation is finished whatever its last word ("Where are you from?"). */
const ASKED_OR_EXCLAIMED = /[?!]["'”’)\]]*$/;
/** A sentence's end: . ! ? (not an ellipsis), then closing quotes or brackets. */
const SENTENCE_END = /(?<![.…])[.!?]["'”’)\]]*$/;
/** Trailing off: an ellipsis, a comma, a semicolon, a colon or a dash at the end. */
const TRAILING_OFF = /(\.\.\.|…|,|;|:|-|—|–)["'”’)\]]*$/;

export interface UnfinishedOptions {
  /** The recogniser ends its sentences with punctuation, so a missing end means more to come. */
  punctuated: boolean;
}

export function isUnfinished(text: string, { punctuated }: UnfinishedOptions): boolean {
  const trimmed = text.trim();
  if (!trimmed) return false;
  if (TRAILING_OFF.test(trimmed)) return true;
  if (ASKED_OR_EXCLAIMED.test(trimmed)) return false;
  const words = trimmed.toLowerCase().match(/[a-z][a-z']*/g);
  const last = words?.at(-1)?.replace(/['’]$/, "");
  if (last !== undefined && DANGLING_WORDS.has(last)) return true;
  return punctuated && !SENTENCE_END.test(trimmed);
}
