import { describe, expect, it } from "vitest";
import { initialsOf } from "./user-avatar";

describe("initialsOf", () => {
  it("takes the first and last word's initials, else the e-mail's first two letters", () => {
    expect(initialsOf("Jane Mary Fan")).toBe("JF");
    expect(initialsOf("Ada")).toBe("AD");
    expect(initialsOf("", "bob@example.com")).toBe("BO");
    expect(initialsOf("")).toBe("?");
  });
});
