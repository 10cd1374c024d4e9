import {
  defaultSiteSettings,
  type SiteSettings,
  type SiteSettingsPatch,
  siteSettingsSchema,
} from "@twinline/contracts";
import type { StoredSettings } from "./repository.ts";

// The two nested documents, merged field by field rather than replaced whole.
const NESTED = ["aiProfile", "socialMediaProfiles"] as const;

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `base` with `patch` laid over it; the nested documents merge field by field. */
export function applyPatch(base: StoredSettings, patch: SiteSettingsPatch): StoredSettings {
  const next: Loose = { ...base, ...patch };
  for (const key of NESTED) {
    if (patch[key] !== undefined) {
      next[key] = { ...(isObject(base[key]) ? base[key] : {}), ...patch[key] };
    }
  }
  return next as StoredSettings;
}

export interface MergeResult {
  settings: SiteSettings;
  /** Paths of stored values that were invalid and replaced by their default. */
  replaced: string[];
}

/**
 * The settings document (the public settings and the operator's own): the stored fields over the
 * spec's defaults, so a document saved before a setting existed reads that setting's default. A stored value that no longer
 * fits the schema (an older or hand-edited row) falls back to its default instead of breaking
 * every page that reads the settings.
 */
export function mergeOverDefaults(stored: unknown): MergeResult {
  const merged: Loose = { ...defaultSiteSettings, ...(isObject(stored) ? stored : {}) };
  for (const key of NESTED) {
    const value = merged[key];
    merged[key] = { ...defaultSiteSettings[key], ...(isObject(value) ? value : {}) };
  }
  const replaced: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const parsed = siteSettingsSchema.safeParse(merged);
    if (parsed.success) return { settings: parsed.data, replaced };
    for (const issue of parsed.error.issues) {
      const [top, nested] = issue.path.map(String);
      if (top === undefined) continue;
      const fallback = defaultSiteSettings as unknown as Loose;
      if (nested !== undefined && isObject(merged[top]) && isObject(fallback[top])) {
        (merged[top] as Loose)[nested] = (fallback[top] as Loose)[nested];
        replaced.push(`${top}.${nested}`);
      } else {
        merged[top] = fallback[top];
        replaced.push(top);
      }
    }
  }
  return { settings: structuredClone(defaultSiteSettings), replaced: ["*"] };
}
