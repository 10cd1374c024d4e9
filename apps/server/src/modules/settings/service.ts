import { createHash } from "node:crypto";
import {
  publicPart,
  type SiteSettings,
  type SiteSettingsPatch,
  siteSettingsPatchSchema,
} from "@twinline/contracts";
import { createNotifyCache, type NotifyingStep } from "../../db/cached-by-notify.ts";
import { applyPatch, mergeOverDefaults } from "./merge.ts";
import type { SettingsRepository } from "./repository.ts";

/**
 * One read of the settings, ready to answer: the whole document (the public settings and the
 * operator's own), the JSON of its public part and that JSON's ETag.
 */
export interface SettingsSnapshot {
  readonly settings: Readonly<SiteSettings>;
  readonly json: string;
  readonly etag: string;
}

export interface SettingsService {
  /**
   * The settings (frozen: copy before changing), the operator's own (the trial's caps) with the
   * public ones. Served from memory after the first read.
   */
  get(): Promise<Readonly<SiteSettings>>;
  /** The same, with its serialised form, for the GET /api/settings route. */
  snapshot(): Promise<SettingsSnapshot>;
  /**
   * The cached snapshot when there is a trustworthy one, without waiting: the hot path of
   * GET /api/settings answers synchronously with it.
   */
  cachedSnapshot(): SettingsSnapshot | undefined;
  /**
   * Saves any subset of the settings (nested objects merge field by field) and answers
   * the result. Invalid input throws a ZodError (the error handler answers 400 naming the field).
   * `alongside` writes go in the same transaction (PUT /api/settings saves the keys with it).
   */
  update(
    patch: SiteSettingsPatch,
    alongside?: readonly NotifyingStep[],
  ): Promise<Readonly<SiteSettings>>;
  /**
   * Like update, under the same row lock, and also answers the settings as they were just
   * before: the image routes delete the file the change replaced, and no other.
   */
  replace(
    patch: SiteSettingsPatch,
  ): Promise<{ before: Readonly<SiteSettings>; after: Readonly<SiteSettings> }>;
  /** Forgets the cached copy: another instance changed the settings. */
  invalidate(): void;
}

export interface SettingsServiceOptions {
  repository: SettingsRepository;
  /**
   * Whether a cached copy can be trusted now. On PostgreSQL it is false while the LISTEN
   * connection is down (a change could go unheard), and reads go to the database meanwhile.
   */
  cacheIsTrustworthy?: () => boolean;
  onInvalidStoredValue?: (paths: string[]) => void;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function toSnapshot(settings: SiteSettings): SettingsSnapshot {
  // GET /api/settings answers anyone: the operator's own settings stay out of it.
  const json = JSON.stringify(publicPart(settings));
  const hash = createHash("sha256").update(json).digest("base64url").slice(0, 27);
  return deepFreeze({ settings, json, etag: `"${hash}"` });
}

export function createSettingsService(options: SettingsServiceOptions): SettingsService {
  const { repository } = options;
  const cacheIsTrustworthy = options.cacheIsTrustworthy ?? (() => true);
  const load = async (): Promise<SettingsSnapshot> => {
    const { settings, replaced } = mergeOverDefaults(await repository.read());
    if (replaced.length > 0) options.onInvalidStoredValue?.(replaced);
    return toSnapshot(settings);
  };
  // A read that started before an invalidation does not refill the cache with the old value.
  const cache = createNotifyCache(load, cacheIsTrustworthy);
  const snapshot = () => cache.get();

  const replace = async (patch: SiteSettingsPatch, alongside?: readonly NotifyingStep[]) => {
    const valid = siteSettingsPatchSchema.parse(patch);
    let previous: SiteSettings | undefined;
    const stored = await repository.update((current) => {
      previous = mergeOverDefaults(current).settings;
      return applyPatch(current, valid);
    }, alongside);
    const fresh = toSnapshot(mergeOverDefaults(stored).settings);
    cache.set(fresh);
    if (!previous) throw new Error("The settings update did not read the stored settings");
    return { before: deepFreeze(previous), after: fresh.settings };
  };

  return {
    snapshot,
    cachedSnapshot: () => cache.peek(),
    async get() {
      return (await snapshot()).settings;
    },
    async update(patch, alongside) {
      return (await replace(patch, alongside)).after;
    },
    replace: (patch) => replace(patch),
    invalidate: () => cache.invalidate(),
  };
}
