import { describe, expect, it } from "vitest";
import { formatInteractionTime } from "./analytics";

describe("formatInteractionTime (admin-side spec: under 60 s in seconds, else Xh Ym or Ym)", () => {
  it.each([
    [0, "0s"],
    [45, "45s"],
    [59.6, "1m"],
    [98, "1m"],
    [600, "10m"],
    [3599, "59m"],
    [3600, "1h 0m"],
    [7_500, "2h 5m"],
  ])("%s seconds read %s", (seconds, shown) => {
    expect(formatInteractionTime(seconds)).toBe(shown);
  });
});
