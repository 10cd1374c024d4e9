import { describe, expect, it } from "vitest";
import { trialDaysOffered } from "./trial";

describe("the free trial a checkout gives", () => {
  it("is the plan's days for a fan who never subscribed, and none after any subscription", () => {
    expect(trialDaysOffered(7, false)).toBe(7);
    expect(trialDaysOffered(7, true)).toBe(0);
    expect(trialDaysOffered(0, false)).toBe(0);
    expect(trialDaysOffered(1, false)).toBe(1);
  });
});
