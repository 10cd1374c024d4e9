import { defaultPublicSettings } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { applyPatch, mergeOverDefaults } from "./merge.ts";

describe("mergeOverDefaults", () => {
  it("fills every missing field with its default", () => {
    const { settings, replaced } = mergeOverDefaults({ aiProfile: { name: "Nova" } });
    expect(settings).toEqual({
      ...defaultPublicSettings,
      aiProfile: { ...defaultPublicSettings.aiProfile, name: "Nova" },
    });
    expect(replaced).toEqual([]);
  });

  it("replaces a stored value that no longer fits by its default, and says which", () => {
    const { settings, replaced } = mergeOverDefaults({
      creditsPerMinute: -3,
      defaultCredits: 40,
      aiProfile: { name: 12 },
      retiredSetting: true,
    });
    expect(settings.creditsPerMinute).toBe(5);
    expect(settings.defaultCredits).toBe(40);
    expect(settings.aiProfile.name).toBe("AI Celebrity Assistant");
    expect(settings).not.toHaveProperty("retiredSetting");
    expect(replaced.sort()).toEqual(["aiProfile.name", "creditsPerMinute"]);
  });

  it("survives a stored document that is not an object", () => {
    expect(mergeOverDefaults(null).settings).toEqual(defaultPublicSettings);
    expect(mergeOverDefaults("garbage").settings).toEqual(defaultPublicSettings);
  });
});

describe("applyPatch", () => {
  it("keeps the nested fields the patch does not name", () => {
    const next = applyPatch(
      { aiProfile: { name: "A", promotionalMessage: "P" } as never, defaultCredits: 1 },
      { aiProfile: { name: "B" } },
    );
    expect(next).toEqual({ aiProfile: { name: "B", promotionalMessage: "P" }, defaultCredits: 1 });
  });
});
