import { VOICE_CLOSE_CODES, VOICE_MESSAGES } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { callRefusal } from "./open-call.ts";

type Settings = Parameters<typeof callRefusal>[1];

const today = new Date("2026-11-27T12:00:00.000Z");
const settings = (voiceOn: boolean) =>
  ({
    minimumAge: 18,
    enableVoiceConversation: voiceOn,
    aiProfile: { enableVoiceConversation: true },
  }) as Settings;

describe("who may start a call", () => {
  it("asks an account made before sign-up asked for its date of birth first", () => {
    expect(callRefusal({ dateOfBirth: null }, settings(true), today)?.code).toBe(
      VOICE_CLOSE_CODES.dateOfBirthRequired,
    );
  });

  it("refuses a fan under the minimum age, one day short of it", () => {
    expect(callRefusal({ dateOfBirth: "2008-11-28" }, settings(true), today)?.code).toBe(
      VOICE_CLOSE_CODES.underAge,
    );
    expect(callRefusal({ dateOfBirth: "2008-11-27" }, settings(true), today)).toBeNull();
  });

  it("tells an adult fan that voice is off while the operator has it off", () => {
    expect(callRefusal({ dateOfBirth: "1990-01-01" }, settings(false), today)).toEqual({
      kind: "refused",
      message: VOICE_MESSAGES.voiceDisabled,
      code: VOICE_CLOSE_CODES.voiceDisabled,
    });
  });
});
