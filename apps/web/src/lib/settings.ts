import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  defaultPublicSettings,
  type PublicSettings,
  publicSettingsAddress,
  SOCIAL_NETWORKS,
  type SocialNetwork,
} from "@twinline/contracts";
import { answerReader, callAddress } from "./api-client";

/**
 * Public site settings (GET /api/settings). Used app-wide: persona, logos, favicon, social links,
 * limits. While loading and after a failure the spec's defaults stand in.
 */
export const SETTINGS_QUERY_KEY = ["settings"] as const;

type Loose = Record<string, unknown>;

function pick<T>(value: unknown, fallback: T): T {
  return typeof value === typeof fallback && value !== null ? (value as T) : fallback;
}

/** Reads an answer defensively: every field missing or of the wrong type takes its default. */
export function normalizeSettings(raw: unknown): PublicSettings {
  if (!raw || typeof raw !== "object") throw new Error("Settings answer is not an object");
  const source = raw as Loose;
  const d = defaultPublicSettings;
  const profile = (source.aiProfile ?? {}) as Loose;
  const social = (source.socialMediaProfiles ?? {}) as Loose;
  return {
    defaultCredits: pick(source.defaultCredits, d.defaultCredits),
    enableVoiceConversation: pick(source.enableVoiceConversation, d.enableVoiceConversation),
    maxWordsPerMessage: pick(source.maxWordsPerMessage, d.maxWordsPerMessage),
    freeMessagesPerDay: pick(source.freeMessagesPerDay, d.freeMessagesPerDay),
    anonymousMessages: pick(source.anonymousMessages, d.anonymousMessages),
    creditsPerMinute: pick(source.creditsPerMinute, d.creditsPerMinute),
    minimumAge: pick(source.minimumAge, d.minimumAge),
    siteName: pick(source.siteName, d.siteName) || d.siteName,
    contactEmail: pick(source.contactEmail, d.contactEmail),
    lightThemeLogo: pick(source.lightThemeLogo, d.lightThemeLogo),
    darkThemeLogo: pick(source.darkThemeLogo, d.darkThemeLogo),
    favicon: pick(source.favicon, d.favicon),
    aiProfile: {
      name: pick(profile.name, d.aiProfile.name) || d.aiProfile.name,
      aiProfileImage: pick(profile.aiProfileImage, d.aiProfile.aiProfileImage),
      enableVoiceConversation: pick(
        profile.enableVoiceConversation,
        d.aiProfile.enableVoiceConversation,
      ),
      promotionalMessage: pick(profile.promotionalMessage, d.aiProfile.promotionalMessage),
    },
    socialMediaProfiles: Object.fromEntries(
      SOCIAL_NETWORKS.map((network) => [network, pick(social[network], "").trim()]),
    ) as Record<SocialNetwork, string>,
    crisisResources: crisisResourcesOf(source.crisisResources, d.crisisResources),
    embedOrigins: Array.isArray(source.embedOrigins)
      ? source.embedOrigins.filter((origin): origin is string => typeof origin === "string")
      : d.embedOrigins,
  };
}

/** The crisis lines: each entry with its four text fields, else the defaults whole. */
function crisisResourcesOf(
  value: unknown,
  fallback: PublicSettings["crisisResources"],
): PublicSettings["crisisResources"] {
  if (!Array.isArray(value) || value.length === 0) return fallback;
  const fields = ["country", "name", "contact", "url"] as const;
  const valid = value.every(
    (entry) =>
      entry &&
      typeof entry === "object" &&
      fields.every((field) => typeof entry[field] === "string"),
  );
  return valid ? (value as PublicSettings["crisisResources"]) : fallback;
}

/**
 * The settings answer's reader: every field is read defensively (a missing one takes its
 * default). Not the contract's zod schema: this call is on the landing page's first load, which
 * carries no zod (decision 0033).
 */
const publicSettingsAnswer = answerReader((body) =>
  body && typeof body === "object" ? normalizeSettings(body) : null,
);

export async function getSettings({ signal }: { signal?: AbortSignal } = {}) {
  return callAddress(publicSettingsAddress, publicSettingsAnswer, { signal, responseType: "json" });
}

export const settingsQueryOptions = queryOptions({
  queryKey: SETTINGS_QUERY_KEY,
  queryFn: getSettings,
  staleTime: 5 * 60_000,
});

export interface SettingsState {
  /** The settings, or the defaults while loading and after a failure. */
  settings: PublicSettings;
  isLoading: boolean;
  isError: boolean;
}

export function useSettings(): SettingsState {
  const query = useQuery(settingsQueryOptions);
  return {
    settings: query.data ?? defaultPublicSettings,
    isLoading: query.isPending,
    isError: query.isError,
  };
}

/** An http(s) URL for an admin-entered link ("instagram.com/x" gains https://), else null. */
export function safeExternalUrl(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  const candidate = /^[a-z][a-z\d+.-]*:/i.test(trimmed)
    ? trimmed
    : `https://${trimmed.replace(/^\/+/, "")}`;
  try {
    const url = new URL(candidate);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The social networks that settings hold a usable link for, in the spec's order. */
export function configuredSocialLinks(
  settings: PublicSettings,
): { network: SocialNetwork; url: string }[] {
  return SOCIAL_NETWORKS.flatMap((network) => {
    const url = safeExternalUrl(settings.socialMediaProfiles[network] ?? "");
    return url ? [{ network, url }] : [];
  });
}
