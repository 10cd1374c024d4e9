import {
  API_KEY_MESSAGES,
  type ApiKeys,
  apiKeysSchema,
  defaultPublicSettings,
  SETTINGS_DEFAULTS,
  type SettingsImageField,
  SOCIAL_NETWORKS,
  type SocialNetwork,
  UPLOAD_LIMITS,
  type UpdateSettingsRequest,
  updateSettingsRequestSchema,
} from "@twinline/contracts";
import type { FieldValues, Resolver } from "react-hook-form";

/** Number fields parse as integers; empty (or unreadable) counts as 0 (admin-side spec, section 5). */
export function parseInteger(value: string): number {
  const parsed = Number.parseInt(value.trim(), 10);
  return Number.isNaN(parsed) ? 0 : parsed;
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/**
 * A react-hook-form resolver for a form whose fields are strings standing for a request: the
 * values become the request (`toRequest`), the request is checked with the contract schema
 * (`validate`, messages per form field, "social.twitter" for nested ones), and the form submits
 * the request itself.
 */
export function contractResolver<V extends FieldValues, R, K extends string>(
  toRequest: (values: V) => R,
  validate: (values: V, request: R) => FieldErrors<K>,
): Resolver<V, unknown, R> {
  return async (values) => {
    const request = toRequest(values);
    const found = Object.entries(validate(values, request)) as [string, string][];
    if (found.length === 0) return { values: request, errors: {} };
    const errors: Record<string, unknown> = {};
    for (const [field, message] of found) {
      const [head, tail] = field.split(".") as [string, string | undefined];
      const error = { type: "contract", message };
      if (tail === undefined) errors[head] = error;
      else errors[head] = { ...(errors[head] as object | undefined), [tail]: error };
    }
    return { values: {}, errors: errors as never };
  };
}

// ---------------------------------------------------------------------------------------------
// API Configuration

export interface ApiKeysFormValues {
  openai: string;
  stripeSecret: string;
  stripePublishable: string;
  elevenLabs: string;
  creditsPerMinute: string;
}
export type ApiKeysField = keyof ApiKeysFormValues;

export function apiKeysToForm(keys: ApiKeys, creditsPerMinute: number): ApiKeysFormValues {
  return {
    openai: keys.openai,
    stripeSecret: keys.stripe.secret,
    stripePublishable: keys.stripe.publishable,
    elevenLabs: keys.elevenLabs,
    creditsPerMinute: String(creditsPerMinute),
  };
}

export function formToApiKeys(values: ApiKeysFormValues): ApiKeys {
  return {
    openai: values.openai.trim(),
    stripe: { secret: values.stripeSecret.trim(), publishable: values.stripePublishable.trim() },
    elevenLabs: values.elevenLabs.trim(),
  };
}

const KEY_PATHS: Record<string, ApiKeysField> = {
  openai: "openai",
  "stripe.secret": "stripeSecret",
  "stripe.publishable": "stripePublishable",
  elevenLabs: "elevenLabs",
};

/** The spec's key rules: prefixes sk-, sk_, pk_ and credits per minute at least 1. */
export function validateApiKeys(values: ApiKeysFormValues): FieldErrors<ApiKeysField> {
  const errors: FieldErrors<ApiKeysField> = {};
  const keys = apiKeysSchema.safeParse(formToApiKeys(values));
  if (!keys.success) {
    for (const issue of keys.error.issues) {
      const field = KEY_PATHS[issue.path.join(".")];
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  if (parseInteger(values.creditsPerMinute) < 1)
    errors.creditsPerMinute = API_KEY_MESSAGES.creditCost;
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Site settings

export interface SettingsFormValues {
  siteName: string;
  contactEmail: string;
  defaultCredits: string;
  enableVoiceConversation: boolean;
  maxWordsPerMessage: string;
  freeMessagesPerDay: string;
  anonymousMessages: string;
  /** The trial's daily caps (decision 0084): per client address, and for the whole site. */
  anonymousMessagesPerAddressPerDay: string;
  anonymousMessagesPerDay: string;
  creditsPerMinute: string;
  minimumAge: string;
  aiName: string;
  aiEnableVoiceConversation: boolean;
  promotionalMessage: string;
  /** The origins allowed to embed the chat bubble, one per line (decision 0085). */
  embedOrigins: string;
  social: Record<SocialNetwork, string>;
}

export type SettingsField = Exclude<keyof SettingsFormValues, "social"> | `social.${SocialNetwork}`;

export function settingsToForm(settings: UpdateSettingsRequest): SettingsFormValues {
  return {
    siteName: settings.siteName ?? "",
    contactEmail: settings.contactEmail ?? "",
    defaultCredits: String(settings.defaultCredits),
    enableVoiceConversation: settings.enableVoiceConversation,
    maxWordsPerMessage: String(settings.maxWordsPerMessage),
    freeMessagesPerDay: String(settings.freeMessagesPerDay),
    anonymousMessages: String(
      settings.anonymousMessages ?? defaultPublicSettings.anonymousMessages,
    ),
    anonymousMessagesPerAddressPerDay: String(
      settings.anonymousMessagesPerAddressPerDay ??
        SETTINGS_DEFAULTS.anonymousMessagesPerAddressPerDay,
    ),
    anonymousMessagesPerDay: String(
      settings.anonymousMessagesPerDay ?? SETTINGS_DEFAULTS.anonymousMessagesPerDay,
    ),
    creditsPerMinute: String(settings.creditsPerMinute),
    minimumAge: String(settings.minimumAge ?? defaultPublicSettings.minimumAge),
    aiName: settings.aiProfile.name,
    aiEnableVoiceConversation: settings.aiProfile.enableVoiceConversation,
    promotionalMessage: settings.aiProfile.promotionalMessage,
    embedOrigins: (settings.embedOrigins ?? []).join("\n"),
    social: { ...settings.socialMediaProfiles },
  };
}

/** The full PUT /api/settings body: the form's fields over `base` (keys and images as stored). */
export function formToSettings(
  values: SettingsFormValues,
  base: UpdateSettingsRequest,
): UpdateSettingsRequest {
  return {
    ...base,
    siteName: values.siteName.trim(),
    contactEmail: values.contactEmail.trim(),
    defaultCredits: parseInteger(values.defaultCredits),
    enableVoiceConversation: values.enableVoiceConversation,
    maxWordsPerMessage: parseInteger(values.maxWordsPerMessage),
    freeMessagesPerDay: parseInteger(values.freeMessagesPerDay),
    anonymousMessages: parseInteger(values.anonymousMessages),
    anonymousMessagesPerAddressPerDay: parseInteger(values.anonymousMessagesPerAddressPerDay),
    anonymousMessagesPerDay: parseInteger(values.anonymousMessagesPerDay),
    creditsPerMinute: parseInteger(values.creditsPerMinute),
    minimumAge: parseInteger(values.minimumAge),
    aiProfile: {
      ...base.aiProfile,
      name: values.aiName.trim(),
      enableVoiceConversation: values.aiEnableVoiceConversation,
      promotionalMessage: values.promotionalMessage.trim(),
    },
    socialMediaProfiles: Object.fromEntries(
      SOCIAL_NETWORKS.map((network) => [network, values.social[network].trim()]),
    ) as Record<SocialNetwork, string>,
    embedOrigins: values.embedOrigins
      .split(/\s+/)
      .map((origin) => origin.trim())
      .filter(Boolean),
  };
}

const SETTINGS_PATHS: Record<string, SettingsField> = {
  siteName: "siteName",
  contactEmail: "contactEmail",
  defaultCredits: "defaultCredits",
  maxWordsPerMessage: "maxWordsPerMessage",
  freeMessagesPerDay: "freeMessagesPerDay",
  anonymousMessages: "anonymousMessages",
  anonymousMessagesPerAddressPerDay: "anonymousMessagesPerAddressPerDay",
  anonymousMessagesPerDay: "anonymousMessagesPerDay",
  creditsPerMinute: "creditsPerMinute",
  minimumAge: "minimumAge",
  "aiProfile.name": "aiName",
  "aiProfile.promotionalMessage": "promotionalMessage",
};

/** The contract's rules for the site settings, as messages per field. */
export function validateSettings(request: UpdateSettingsRequest): FieldErrors<SettingsField> {
  const errors: FieldErrors<SettingsField> = {};
  const parsed = updateSettingsRequestSchema.safeParse(request);
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const path = issue.path.join(".");
    const field: SettingsField | undefined = path.startsWith("socialMediaProfiles.")
      ? (`social.${path.slice("socialMediaProfiles.".length)}` as SettingsField)
      : path === "embedOrigins" || path.startsWith("embedOrigins.")
        ? "embedOrigins"
        : SETTINGS_PATHS[path];
    if (!field || errors[field]) continue;
    // The contract names the minimum of the chat limits and the credit cost (at least 1).
    errors[field] =
      issue.code === "too_small" && field === "defaultCredits"
        ? "Must be 0 or more"
        : issue.message;
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Images

const FAVICON_EXTENSIONS = [".ico", ".png", ".svg"];

export const IMAGE_TOO_LARGE = `Image must be ${UPLOAD_LIMITS.imageBytes / (1024 * 1024)} MB or smaller`;
export const NOT_AN_IMAGE = "Please choose an image file";
export const NOT_A_FAVICON = "The favicon must be an .ico, .png or .svg file";

/** The client's quick check of an image before upload; null when it may go. */
export function imageFileError(field: SettingsImageField, file: File): string | null {
  const name = file.name.toLowerCase();
  if (field === "favicon") {
    if (!FAVICON_EXTENSIONS.some((ext) => name.endsWith(ext))) return NOT_A_FAVICON;
  } else if (!file.type.startsWith("image/")) {
    return NOT_AN_IMAGE;
  }
  if (file.size > UPLOAD_LIMITS.imageBytes) return IMAGE_TOO_LARGE;
  return null;
}
