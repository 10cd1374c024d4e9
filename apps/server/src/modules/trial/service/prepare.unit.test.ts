import { CHAT_MESSAGES, TRIAL_CODES, TRIAL_MESSAGES } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { HttpError } from "../../../plugins/errors.ts";
import { trialMessageOf } from "./prepare.ts";

const settings = { anonymousMessages: 5, maxWordsPerMessage: 3 };
const refusalOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as HttpError;
  }
  throw new Error("the message was taken");
};

describe("what a visitor's trial message may be", () => {
  it("takes a message of exactly the word limit and refuses one word more", () => {
    expect(trialMessageOf({ message: "  one two three " }, settings)).toBe("one two three");
    const tooLong = refusalOf(() => trialMessageOf({ message: "one two three four" }, settings));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.message).toBe(CHAT_MESSAGES.tooManyWords(3));
  });

  it("says the trial is off while the operator allows no anonymous message", () => {
    const off = refusalOf(() =>
      trialMessageOf({ message: "hi" }, { ...settings, anonymousMessages: 0 }),
    );
    expect(off).toBeInstanceOf(HttpError);
    expect(off.statusCode).toBe(403);
    expect(off.message).toBe(TRIAL_MESSAGES.off);
    expect(off.extra).toEqual({ code: TRIAL_CODES.off });
  });

  it("refuses a blank message as the member chat does", () => {
    expect(refusalOf(() => trialMessageOf({ message: "   " }, settings)).message).toBe(
      CHAT_MESSAGES.emptyMessage,
    );
  });
});
