import { defaultSiteSettings } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { applyPatch, mergeOverDefaults } from "./merge.ts";

describe("mergeOverDefaults", () => {
  it("fills every missing field with its default", () => {
    const { settings, replaced } = mergeOverDefaults({ aiProfile: { name: "Nova" } });
    expect(settings).toEqual({
      ...defaultSiteSettings,
      aiProfile: { ...defaultSiteSettings.aiProfile, name: "Nova" },
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

  it("gives a document saved before the trial's caps existed their defaults, and keeps saved ones", () => {
    const older = mergeOverDefaults({ anonymousMessages: 5, freeMessagesPerDay: 2 });
    expect(older.settings).toMatchObject({
      anonymousMessages: 5,
      anonymousMessagesPerAddressPerDay: 30,
      anonymousMessagesPerDay: 1_000,
    });
    expect(older.replaced).toEqual([]);
    const saved = mergeOverDefaults({
      anonymousMessagesPerAddressPerDay: 7,
      anonymousMessagesPerDay: 0, // hand-edited below the bound: back to the default
    });
    expect(saved.settings.anonymousMessagesPerAddressPerDay).toBe(7);
    expect(saved.settings.anonymousMessagesPerDay).toBe(1_000);
    expect(saved.replaced).toEqual(["anonymousMessagesPerDay"]);
  });

  it("survives a stored document that is not an object", () => {
    expect(mergeOverDefaults(null).settings).toEqual(defaultSiteSettings);
    expect(mergeOverDefaults("garbage").settings).toEqual(defaultSiteSettings);
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
