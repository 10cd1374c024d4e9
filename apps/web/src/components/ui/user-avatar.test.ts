import { describe, expect, it } from "vitest";
import { initialsOf } from "./user-avatar";

describe("initialsOf", () => {
  it("takes the first and last word's initials, else the e-mail's first two letters", () => {
    expect(initialsOf("Jade Moon Fan")).toBe("JF");
    expect(initialsOf("Loyal")).toBe("LO");
    expect(initialsOf("", "buyer@example.com")).toBe("BU");
    expect(initialsOf("")).toBe("?");
  });
});
