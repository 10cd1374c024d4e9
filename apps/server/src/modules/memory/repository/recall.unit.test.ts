import { describe, expect, it } from "vitest";
import { recallOf } from "./recall.ts";

describe("what a reply is given of the fan's memory", () => {
  it("gives nothing, not even the summary, while the fan has memory off", () => {
    expect(recallOf({ enabled: false, summary: "Likes jazz", recalled: ["my dog Rex"] })).toEqual({
      summary: null,
      recalled: [],
    });
  });

  it("remembers for a fan who never touched the switch, whichever way the driver answers", () => {
    expect(recallOf({ enabled: null, summary: null, recalled: '["my dog Rex"]' })).toEqual({
      summary: null,
      recalled: ["my dog Rex"],
    });
    expect(recallOf({ enabled: true, summary: "Likes jazz", recalled: ["my dog Rex"] })).toEqual({
      summary: "Likes jazz",
      recalled: ["my dog Rex"],
    });
  });
});
