/**
 * Cuts the LLM's streamed text into sentences, so each is spoken as soon as it is complete.
 * A sentence ends at . ! ? … (with closing quotes or brackets) followed by white space, or at a
 * line break; common abbreviations ("Dr.", "e.g.") and numbers ("3.5") do not end one. A piece
 * shorter than `minChars` waits for the next, so "Oh." is not sent alone to the speech provider;
 * a run with no end is cut at `maxChars` on a comma or a space, so a long sentence never holds
 * its audio back for long.
 */

const ABBREVIATIONS = new Set(
  "mr mrs ms dr prof sr jr st vs etc e.g i.e a.m p.m no approx dept inc ltd co mt fig"
    .split(" ")
    .map((word) => `${word}.`),
);

// An end mark, closing quotes/brackets, then white space (the space is kept out of the match end).
const END = /[.!?…]+["'”’)\]]*(?=\s)|\n+/g;

export interface SentenceSplitterOptions {
  /** Shorter pieces are joined to the next sentence (default 12 characters). */
  minChars?: number;
  /** A run without an end is cut here (default 240 characters). */
  maxChars?: number;
}

export class SentenceSplitter {
  private buffer = "";
  private readonly minChars: number;
  private readonly maxChars: number;

  constructor(options: SentenceSplitterOptions = {}) {
    this.minChars = options.minChars ?? 12;
    this.maxChars = options.maxChars ?? 240;
  }

  /** Adds streamed text; answers the sentences it completed, in order. */
  push(text: string): string[] {
    this.buffer += text;
    const sentences: string[] = [];
    for (;;) {
      const cut = this.nextCut();
      if (cut === undefined) break;
      const sentence = this.buffer.slice(0, cut).trim();
      this.buffer = this.buffer.slice(cut).replace(/^\s+/, "");
      if (sentence) sentences.push(sentence);
    }
    return sentences;
  }

  /** The end of the stream: what is left, if anything, as the last sentence. */
  flush(): string[] {
    const rest = this.buffer.trim();
    this.buffer = "";
    return rest ? [rest] : [];
  }

  /** Where the first complete sentence (at least minChars long) ends, if there is one. */
  private nextCut(): number | undefined {
    END.lastIndex = 0;
    for (let match = END.exec(this.buffer); match; match = END.exec(this.buffer)) {
      const end = match.index + match[0].length;
      if (match[0].startsWith("\n")) {
        if (this.buffer.slice(0, match.index).trim().length >= this.minChars) return end;
        continue;
      }
      if (this.isAbbreviation(match.index, match[0])) continue;
      if (this.buffer.slice(0, end).trim().length >= this.minChars) return end;
    }
    if (this.buffer.length > this.maxChars) {
      const head = this.buffer.slice(0, this.maxChars);
      const comma = head.lastIndexOf(", ");
      if (comma > this.maxChars / 2) return comma + 1;
      const space = head.lastIndexOf(" ");
      return space > 0 ? space : this.maxChars;
    }
    return undefined;
  }

  private isAbbreviation(index: number, mark: string): boolean {
    if (mark !== ".") return false;
    const word = /(\S+)$/.exec(this.buffer.slice(0, index))?.[1]?.toLowerCase();
    if (!word) return false;
    // A single letter ("J. Smith") or a known abbreviation.
    return /^[a-z]$/i.test(word) || ABBREVIATIONS.has(`${word}.`);
  }
}

/** A whole text cut into sentences (the REST synthesize route, tests). */
export function splitSentences(text: string, options?: SentenceSplitterOptions): string[] {
  const splitter = new SentenceSplitter(options);
  return [...splitter.push(text), ...splitter.flush()];
}
