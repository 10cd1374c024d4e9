import { describe, expect, it } from "vitest";
import { PASSAGE_MAX, splitIntoPassages } from "./passages.ts";

const sentence = (n: number) =>
  `Sentence number ${n} tells a small fact about the persona's life and work.`;

describe("splitIntoPassages", () => {
  it("cuts long text into passages of about a thousand characters on sentence boundaries, overlapping", () => {
    const page = Array.from({ length: 60 }, (_, i) => sentence(i)).join(" ");
    const passages = splitIntoPassages([page]);
    expect(passages.length).toBeGreaterThan(3);
    for (const passage of passages) {
      expect(passage.length).toBeLessThanOrEqual(PASSAGE_MAX);
      expect(passage).toMatch(/^Sentence number \d+/);
      expect(passage).toMatch(/work\.$/);
    }
    for (const passage of passages.slice(0, -1)) expect(passage.length).toBeGreaterThanOrEqual(800);
    // Each passage starts with the last sentence of the one before.
    const lastOfFirst = passages[0]?.split(/(?<=\.) /).at(-1);
    expect(passages[1]?.startsWith(lastOfFirst ?? "?")).toBe(true);
  });

  it("keeps short documents whole, drops empty pages, splits a sentence longer than a passage", () => {
    expect(splitIntoPassages(["A short note.", "", "  "])).toEqual(["A short note."]);
    expect(splitIntoPassages(["", " \n "])).toEqual([]);
    const long = "word ".repeat(600).trim();
    const pieces = splitIntoPassages([long]);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(PASSAGE_MAX);
  });
});
