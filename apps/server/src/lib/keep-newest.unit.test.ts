import { describe, expect, it } from "vitest";
import { keepNewest } from "./keep-newest.ts";

describe("keepNewest", () => {
  it("forgets a Set's oldest entries past the limit, in insertion order", () => {
    const seen = new Set(["a", "b", "c", "d"]);
    keepNewest(seen, 2);
    expect([...seen]).toEqual(["c", "d"]);
  });

  it("counts a Map's re-set key as new only when it was deleted first", () => {
    const known = new Map([
      ["a", 1],
      ["b", 2],
    ]);
    known.delete("a");
    known.set("a", 3);
    known.set("c", 4);
    keepNewest(known, 2);
    expect([...known.keys()]).toEqual(["a", "c"]);
  });

  it("leaves a collection at or under the limit alone", () => {
    const seen = new Set([1, 2]);
    keepNewest(seen, 2);
    expect([...seen]).toEqual([1, 2]);
  });
});
