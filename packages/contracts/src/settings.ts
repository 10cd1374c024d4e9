import { z } from "zod";
import { safeText } from "./text";

export const SOCIAL_NETWORKS = [
  "twitter",
  "instagram",
  "youtube",
  "facebook",
  "tiktok",
  "snapchat",
  "onlyfans",
] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** The spec's defaults (user-side section 9, admin-side section 9). */
export const SETTINGS_DEFAULTS = {
  defaultCredits: 100,
  enableVoiceConversation: true,
  maxWordsPerMessage: 500,
  freeMessagesPerDay: 5,
  creditsPerMinute: 5,
  aiProfileName: "AI Celebrity Assistant",
} as const;

const count = z.number().int().min(0);

/** The chat limits below 1 would stop every chat (an emptied form field arrives as 0). */
export const SETTINGS_MESSAGES_MIN = {
  maxWordsPerMessage: "Max words per message must be at least 1",
  freeMessagesPerDay: "Free messages per day must be at least 1",
} as const;

export const aiProfileSchema = z.object({
  name: safeText(),
  aiProfileImage: safeText(),
  enableVoiceConversation: z.boolean(),
  promotionalMessage: safeText(),
});

export const socialMediaProfilesSchema = z.object(
  Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, safeText()])) as Record<
    SocialNetwork,
    z.ZodString
  >,
);

/** What GET /api/settings answers to anyone: never any provider key. */
export const publicSettingsSchema = z.object({
  defaultCredits: count,
  enableVoiceConversation: z.boolean(),
  maxWordsPerMessage: z.number().int().min(1, { error: SETTINGS_MESSAGES_MIN.maxWordsPerMessage }),
  freeMessagesPerDay: z.number().int().min(1, { error: SETTINGS_MESSAGES_MIN.freeMessagesPerDay }),
  creditsPerMinute: z.number().int().min(1),
  lightThemeLogo: safeText(),
  darkThemeLogo: safeText(),
  favicon: safeText(),
  aiProfile: aiProfileSchema,
  socialMediaProfiles: socialMediaProfilesSchema,
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

export const defaultPublicSettings: PublicSettings = {
  defaultCredits: SETTINGS_DEFAULTS.defaultCredits,
  enableVoiceConversation: SETTINGS_DEFAULTS.enableVoiceConversation,
  maxWordsPerMessage: SETTINGS_DEFAULTS.maxWordsPerMessage,
  freeMessagesPerDay: SETTINGS_DEFAULTS.freeMessagesPerDay,
  creditsPerMinute: SETTINGS_DEFAULTS.creditsPerMinute,
  lightThemeLogo: "",
  darkThemeLogo: "",
  favicon: "",
  aiProfile: {
    name: SETTINGS_DEFAULTS.aiProfileName,
    aiProfileImage: "",
    enableVoiceConversation: SETTINGS_DEFAULTS.enableVoiceConversation,
    promotionalMessage: "",
  },
  socialMediaProfiles: {
    twitter: "",
    instagram: "",
    youtube: "",
    facebook: "",
    tiktok: "",
    snapchat: "",
    onlyfans: "",
  },
};

/** A change to the public settings: any subset of the fields, nested objects partly too. */
export const publicSettingsPatchSchema = publicSettingsSchema
  .extend({
    aiProfile: aiProfileSchema.partial(),
    socialMediaProfiles: socialMediaProfilesSchema.partial(),
  })
  .partial();
export type PublicSettingsPatch = z.infer<typeof publicSettingsPatchSchema>;
