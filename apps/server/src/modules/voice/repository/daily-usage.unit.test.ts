import { describe, expect, it } from "vitest";
import { exceedsDailyCap } from "./daily-usage.ts";

const limits = { synthesizedCharacters: 5_000, llmCalls: 40 };

describe("the daily cap on a fan's voice spend outside a paid call", () => {
  it("refuses an amount larger than a whole day's cap, characters or model calls", () => {
    expect(exceedsDailyCap({ synthesizedCharacters: 5_001 }, limits)).toBe(true);
    expect(exceedsDailyCap({ llmCalls: 41 }, limits)).toBe(true);
  });

  it("leaves an amount up to the cap (what it does not name counts as none) to the day's total", () => {
    expect(exceedsDailyCap({ synthesizedCharacters: 5_000, llmCalls: 40 }, limits)).toBe(false);
    expect(exceedsDailyCap({ synthesizedCharacters: 120 }, limits)).toBe(false);
    expect(exceedsDailyCap({}, limits)).toBe(false);
  });
});
