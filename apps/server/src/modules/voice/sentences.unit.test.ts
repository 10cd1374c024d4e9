import { describe, expect, it } from "vitest";
import { SentenceSplitter, splitSentences } from "./sentences.ts";

describe("sentence splitter", () => {
  it("gives each sentence as soon as the text after it begins", () => {
    const splitter = new SentenceSplitter();
    expect(splitter.push("Hello there, nice to")).toEqual([]);
    expect(splitter.push(" meet you. How")).toEqual(["Hello there, nice to meet you."]);
    expect(splitter.push(" are you today? I'm")).toEqual(["How are you today?"]);
    expect(splitter.push(" fine!")).toEqual([]);
    expect(splitter.flush()).toEqual(["I'm fine!"]);
    expect(splitter.flush()).toEqual([]);
  });

  it("keeps abbreviations, initials and decimals inside a sentence", () => {
    expect(
      splitSentences(
        "Dr. Smith met J. Doe at 3.5 p.m. yesterday. We talked about music, e.g. jazz.",
      ),
    ).toEqual(["Dr. Smith met J. Doe at 3.5 p.m. yesterday.", "We talked about music, e.g. jazz."]);
  });

  it("joins a very short sentence to the next one", () => {
    expect(splitSentences("Oh. That is a lovely question! Yes.")).toEqual([
      "Oh. That is a lovely question!",
      "Yes.",
    ]);
  });

  it("ends at line breaks, quotes and ellipses", () => {
    expect(
      splitSentences('She said "this is great." Then… we left\nA new line starts here'),
    ).toEqual(['She said "this is great."', "Then… we left", "A new line starts here"]);
  });

  it("cuts a run with no end on a comma or a space, never beyond maxChars", () => {
    const long = `${"word ".repeat(30)}and then, ${"more ".repeat(30)}`;
    const pieces = splitSentences(long, { maxChars: 100 });
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(100);
    expect(pieces.join(" ").replace(/\s+/g, " ")).toBe(long.trim().replace(/\s+/g, " "));
  });

  it("splits the same way whatever the pieces the stream arrives in", () => {
    const text = "First things first. Second thing here! And the third one? Done now.";
    const whole = splitSentences(text);
    const splitter = new SentenceSplitter();
    const streamed: string[] = [];
    for (const char of text) streamed.push(...splitter.push(char));
    streamed.push(...splitter.flush());
    expect(streamed).toEqual(whole);
    expect(whole).toHaveLength(4);
  });
});
