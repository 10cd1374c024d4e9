import { z } from "zod";
import { paymentProviderSchema } from "./billing/shared";
import { operatorSettingsSchema, publicSettingsSchema, siteSettingsSchema } from "./settings";
import { safeText, singleLineText } from "./text";

/**
 * Provider keys as the admin reads them: masked, never whole (DESIGN.md, data rules). Saving a
 * masked value back keeps the stored key; an empty string removes it.
 */
export const MASK_CHAR = "•";

/**
 * The shapes of the providers' keys, each with the prefix a mask keeps: OpenAI (sk-, sk-proj-),
 * Stripe (sk_/pk_/rk_ live or test), ElevenLabs (32 hex digits, or sk_ and hex), webhook
 * signing secrets (whsec_).
 */
const KEY_SHAPES: readonly RegExp[] = [
  /^(sk-(?:proj-|svcacct-|admin-)?)[A-Za-z0-9_-]{16,}$/,
  /^((?:sk|pk|rk)_(?:live|test)_)[A-Za-z0-9_]{16,}$/,
  /^()[0-9a-f]{32}$/,
  /^(sk_)[0-9a-f]{40,}$/,
  /^(whsec_)[A-Za-z0-9+/=_]{16,}$/,
];

/**
 * A stored key as the admin sees it: its prefix and last four only when it has a provider's
 * shape (those say which key it is, and nothing that helps guess it); anything else is dots
 * only, since its pieces could be any part of it.
 */
export function maskSecret(secret: string): string {
  if (!secret) return "";
  for (const shape of KEY_SHAPES) {
    const match = shape.exec(secret);
    if (match) return `${match[1] ?? ""}${MASK_CHAR.repeat(8)}${secret.slice(-4)}`;
  }
  return MASK_CHAR.repeat(8);
}

export function isMaskedSecret(value: string): boolean {
  return value.includes(MASK_CHAR);
}

/** The spec's key rules (admin-side section 5). */
export const API_KEY_MESSAGES = {
  openaiPrefix: 'OpenAI API key should start with "sk-"',
  stripeSecretPrefix: 'Stripe secret key should start with "sk_"',
  stripePublishablePrefix: 'Stripe publishable key should start with "pk_"',
  creditCost: "Credit cost must be at least 1",
  tooLong: "API keys are at most 256 characters",
} as const;

/**
 * No provider's key comes near this (OpenAI's project keys, the longest, are under 200): a longer
 * value is a paste gone wrong, refused before it is stored, tested or sent to anyone (issue 24).
 */
export const MAX_API_KEY_LENGTH = 256;

/** A key field: one line, at most MAX_API_KEY_LENGTH characters. */
const keyText = () =>
  singleLineText().max(MAX_API_KEY_LENGTH, { error: API_KEY_MESSAGES.tooLong }).trim();

// A masked value is the stored key shown back (dots only when the key has no provider's shape).
const optionalKey = (prefix: string, message: string) =>
  keyText().refine((value) => value === "" || isMaskedSecret(value) || value.startsWith(prefix), {
    error: message,
  });

export const apiKeysSchema = z.object({
  openai: optionalKey("sk-", API_KEY_MESSAGES.openaiPrefix),
  stripe: z.object({
    secret: optionalKey("sk_", API_KEY_MESSAGES.stripeSecretPrefix),
    publishable: optionalKey("pk_", API_KEY_MESSAGES.stripePublishablePrefix),
  }),
  elevenLabs: keyText(),
});
export type ApiKeys = z.infer<typeof apiKeysSchema>;

/** Which implementation each provider runs right now, so the admin sees what is offline. */
export const providerModesSchema = z.object({
  llm: z.enum(["openai", "offline"]),
  /**
   * Speech to text of the voice call: OpenAI-compatible transcription; offline, pocketsphinx
   * (rough) when it is installed, else none.
   */
  stt: z.enum(["openai", "pocketsphinx", "offline"]),
  tts: z.enum(["elevenlabs", "offline"]),
  payments: paymentProviderSchema,
});
export type ProviderModes = z.infer<typeof providerModesSchema>;

/** The last test of a stored key (POST /api/settings/test-*); null: that key was never tested. */
export const keyTestSchema = z.object({
  ok: z.boolean(),
  /** The provider's refusal when it failed, else empty. */
  message: z.string(),
  testedAt: z.string(),
});
export type KeyTest = z.infer<typeof keyTestSchema>;
export const keyTestsSchema = z.object({
  openai: keyTestSchema.nullable(),
  stripe: keyTestSchema.nullable(),
  elevenLabs: keyTestSchema.nullable(),
});
export type KeyTests = z.infer<typeof keyTestsSchema>;

/** GET /api/admin/settings, and the answer of every settings write. */
export const adminSettingsSchema = siteSettingsSchema.extend({
  apiKeys: apiKeysSchema,
  providers: providerModesSchema,
  keyTests: keyTestsSchema,
  /** The chat bubble's script at PUBLIC_URL, for the snippet of the settings (decision 0085). */
  embedScriptUrl: z.string(),
});
export type AdminSettings = z.infer<typeof adminSettingsSchema>;

const socialUrl = safeText()
  .trim()
  .refine((value) => value === "" || /^https?:\/\/\S+$/i.test(value), {
    error: "Must be a full URL starting with http:// or https://",
  });

/** PUT /api/settings: the full settings object of the admin-side spec (section 7). */
export const updateSettingsRequestSchema = publicSettingsSchema.extend({
  creditsPerMinute: z.number().int().min(1, { error: API_KEY_MESSAGES.creditCost }),
  apiKeys: apiKeysSchema,
  // Optional so a client that predates it keeps the stored name.
  siteName: publicSettingsSchema.shape.siteName.optional(),
  minimumAge: publicSettingsSchema.shape.minimumAge.optional(),
  anonymousMessages: publicSettingsSchema.shape.anonymousMessages.optional(),
  anonymousMessagesPerAddressPerDay:
    operatorSettingsSchema.shape.anonymousMessagesPerAddressPerDay.optional(),
  anonymousMessagesPerDay: operatorSettingsSchema.shape.anonymousMessagesPerDay.optional(),
  crisisResources: publicSettingsSchema.shape.crisisResources.optional(),
  contactEmail: publicSettingsSchema.shape.contactEmail.optional(),
  embedOrigins: publicSettingsSchema.shape.embedOrigins.optional(),
  socialMediaProfiles: z.object({
    twitter: socialUrl,
    instagram: socialUrl,
    youtube: socialUrl,
    facebook: socialUrl,
    tiktok: socialUrl,
    snapchat: socialUrl,
    onlyfans: socialUrl,
  }),
});
export type UpdateSettingsRequest = z.infer<typeof updateSettingsRequestSchema>;

export const adminSettingsResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: adminSettingsSchema,
});

export const testKeyRequestSchema = z.object({
  apiKey: keyText().min(1, { error: "Enter the key before testing it" }),
});
export const testOpenAiResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ availableModels: z.array(z.string()) }),
});
export const testStripeResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export const testElevenLabsResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    availableVoices: z.array(z.object({ voice_id: z.string(), name: z.string() })),
  }),
});

/** Multipart field names of POST /api/settings/upload, and the kinds of DELETE /api/settings/image/{kind}. */
export const SETTINGS_IMAGE_FIELDS = {
  aiProfileImage: { kind: "ai", label: "AI Profile Image" },
  lightThemeLogo: { kind: "light", label: "Light Theme Logo" },
  darkThemeLogo: { kind: "dark", label: "Dark Theme Logo" },
  favicon: { kind: "favicon", label: "Favicon" },
} as const;
export type SettingsImageField = keyof typeof SETTINGS_IMAGE_FIELDS;
export const settingsImageKindSchema = z.enum(["ai", "light", "dark", "favicon"]);

/** Upload limits (admin-side sections 5 and 9). */
export const UPLOAD_LIMITS = {
  imageBytes: 5 * 1024 * 1024,
  knowledgeDocumentBytes: 50 * 1024 * 1024,
  voiceSampleBytes: 100 * 1024 * 1024,
} as const;
