import { z } from "zod";
import { SOCIAL_NETWORKS, type SocialNetwork } from "./constants";

// The constants live in ./constants (no zod): the landing page reads them without loading zod.
export {
  defaultPublicSettings,
  SETTINGS_DEFAULTS,
  SOCIAL_NETWORKS,
  type SocialNetwork,
} from "./constants";

const count = z.number().int().min(0);

export const aiProfileSchema = z.object({
  name: z.string(),
  aiProfileImage: z.string(),
  enableVoiceConversation: z.boolean(),
  promotionalMessage: z.string(),
});

export const socialMediaProfilesSchema = z.object(
  Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, z.string()])) as Record<
    SocialNetwork,
    z.ZodString
  >,
);

/** What GET /api/settings answers to anyone: never any provider key. */
export const publicSettingsSchema = z.object({
  defaultCredits: count,
  enableVoiceConversation: z.boolean(),
  maxWordsPerMessage: count,
  freeMessagesPerDay: count,
  creditsPerMinute: z.number().int().min(1),
  lightThemeLogo: z.string(),
  darkThemeLogo: z.string(),
  favicon: z.string(),
  aiProfile: aiProfileSchema,
  socialMediaProfiles: socialMediaProfilesSchema,
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
