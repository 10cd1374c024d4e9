import { z } from "zod";
import { minimumAgeSchema } from "./age";
import { SOCIAL_NETWORKS, type SocialNetwork } from "./constants";
import { contactEmailSchema } from "./contact";
import { crisisResourcesSchema } from "./crisis";
import { embedOriginsSchema } from "./embed";
import { safeText } from "./text";
import { MAX_ANONYMOUS_MESSAGES, TRIAL_CAP_LIMITS } from "./trial-constants";

// The constants live in ./constants (no zod): the landing page reads them without loading zod.
export {
  APP_THEME_COLOR,
  defaultPublicSettings,
  defaultSiteSettings,
  SETTINGS_DEFAULTS,
  SOCIAL_NETWORKS,
  type SocialNetwork,
} from "./constants";

const count = z.number().int().min(0);

/**
 * A word limit below 1 would stop every chat (an emptied form field arrives as 0). Free
 * messages per day may be 0: the spec reads an empty field as 0, and 0 means only subscribers
 * chat (docs/decisions/0049).
 */
export const SETTINGS_MESSAGES_MIN = {
  maxWordsPerMessage: "Max words per message must be at least 1",
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
  freeMessagesPerDay: count,
  /**
   * Messages a visitor may send without an account (issue 27; decision 0084): default 3, 0 turns
   * the landing page's trial chat off.
   */
  anonymousMessages: count.max(MAX_ANONYMOUS_MESSAGES, {
    error: `Anonymous messages must be at most ${MAX_ANONYMOUS_MESSAGES}`,
  }),
  creditsPerMinute: z.number().int().min(1),
  /** Sign-up refuses anyone younger (issue 25; decision 0054): default 18, never below 13. */
  minimumAge: minimumAgeSchema,
  /** The operator as the legal pages and the footer name it. */
  siteName: safeText().trim().min(1, { error: "Site name is required" }).max(80),
  /** The operator's contact address (issue 26): the contact page shows it and its form mails it. */
  contactEmail: contactEmailSchema,
  lightThemeLogo: safeText(),
  darkThemeLogo: safeText(),
  favicon: safeText(),
  aiProfile: aiProfileSchema,
  socialMediaProfiles: socialMediaProfilesSchema,
  /** The crisis lines the caring message lists (issue 25), by country; edited by the operator. */
  crisisResources: crisisResourcesSchema,
  /**
   * The origins whose pages may frame the embed page (issue 27 item 5; decision 0085): the CSP
   * frame-ancestors of /embed. Empty: the chat bubble works nowhere.
   */
  embedOrigins: embedOriginsSchema,
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

/** A change to the public settings: any subset of the fields, nested objects partly too. */
export const publicSettingsPatchSchema = publicSettingsSchema
  .extend({
    aiProfile: aiProfileSchema.partial(),
    socialMediaProfiles: socialMediaProfilesSchema.partial(),
  })
  .partial();
export type PublicSettingsPatch = z.infer<typeof publicSettingsPatchSchema>;

const cap = (name: string, { min, max }: { min: number; max: number }) =>
  z
    .number({ error: `${name} must be a whole number` })
    .int({ error: `${name} must be a whole number` })
    .min(min, { error: `${name} must be at least ${min}` })
    .max(max, { error: `${name} must be at most ${max.toLocaleString("en-US")}` });

/**
 * The operator's settings that are nobody else's business: the anonymous trial's daily caps
 * (decision 0084), which bound what visitors without an account spend of the operator's provider
 * budget. Stored in the settings document with the public ones; GET /api/settings leaves them out.
 */
export const operatorSettingsSchema = z.object({
  anonymousMessagesPerAddressPerDay: cap(
    "Trial messages per address per day",
    TRIAL_CAP_LIMITS.perAddressPerDay,
  ),
  anonymousMessagesPerDay: cap("Trial messages per day", TRIAL_CAP_LIMITS.perDay),
});

/** The whole settings document: the public settings and the operator's own. */
export const siteSettingsSchema = publicSettingsSchema.extend(operatorSettingsSchema.shape);
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** The public part of the settings document: what GET /api/settings answers. */
export function publicPart(settings: SiteSettings): PublicSettings {
  const {
    anonymousMessagesPerAddressPerDay: _address,
    anonymousMessagesPerDay: _day,
    ...rest
  } = settings;
  return rest;
}

/** A change to the settings document: any subset of the fields, nested objects partly too. */
export const siteSettingsPatchSchema = publicSettingsPatchSchema.extend(
  operatorSettingsSchema.partial().shape,
);
export type SiteSettingsPatch = z.infer<typeof siteSettingsPatchSchema>;
