import { DEFAULT_CRISIS_RESOURCES } from "./crisis-constants";
import type { PublicSettings, SiteSettings } from "./settings";

/**
 * Contract constants with no zod in them: the web's landing page imports these (through the
 * package's barrel, `"sideEffects": false`) without pulling zod into its first load (decision 0033).
 */

/** The header every state-changing request carries. */
export const CSRF_HEADER = "csrf-token";

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

/** The age gate (issue 25, item 4): the operator's minimum age and the dates a birth may have. */
export const AGE_RULES = {
  defaultMinimumAge: 18,
  lowestMinimumAge: 13,
  highestMinimumAge: 99,
  earliestYear: 1900,
} as const;

/** The notice on the landing page and the sign-up form. */
export const MINORS_NOTICE = "AI companions may not be suitable for some minors";

/**
 * The app's brand colour (the web's brand-600): the installed app's title bar and the browser's
 * theme-color (index.html says the same).
 */
export const APP_THEME_COLOR = "#e11d55";

/** The spec's defaults (user-side section 9, admin-side section 9). */
export const SETTINGS_DEFAULTS = {
  defaultCredits: 100,
  enableVoiceConversation: true,
  maxWordsPerMessage: 500,
  freeMessagesPerDay: 5,
  /** Messages a visitor may send without an account (decision 0084); 0: no trial chat. */
  anonymousMessages: 3,
  /** Anonymous messages one client address may send per UTC day (decision 0084). */
  anonymousMessagesPerAddressPerDay: 30,
  /** Anonymous messages the whole site answers per UTC day (decision 0084). */
  anonymousMessagesPerDay: 1_000,
  creditsPerMinute: 5,
  aiProfileName: "AI Celebrity Assistant",
  /** The operator's name in the site's own pages and footer. */
  siteName: "Twinline",
} as const;

export const defaultPublicSettings: PublicSettings = {
  defaultCredits: SETTINGS_DEFAULTS.defaultCredits,
  enableVoiceConversation: SETTINGS_DEFAULTS.enableVoiceConversation,
  maxWordsPerMessage: SETTINGS_DEFAULTS.maxWordsPerMessage,
  freeMessagesPerDay: SETTINGS_DEFAULTS.freeMessagesPerDay,
  anonymousMessages: SETTINGS_DEFAULTS.anonymousMessages,
  creditsPerMinute: SETTINGS_DEFAULTS.creditsPerMinute,
  minimumAge: AGE_RULES.defaultMinimumAge,
  siteName: SETTINGS_DEFAULTS.siteName,
  contactEmail: "",
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
  crisisResources: DEFAULT_CRISIS_RESOURCES,
  embedOrigins: [],
};

/**
 * The whole settings document's defaults: the public settings and the operator's own (the trial's
 * daily caps), which GET /api/settings does not show.
 */
export const defaultSiteSettings: SiteSettings = {
  ...defaultPublicSettings,
  anonymousMessagesPerAddressPerDay: SETTINGS_DEFAULTS.anonymousMessagesPerAddressPerDay,
  anonymousMessagesPerDay: SETTINGS_DEFAULTS.anonymousMessagesPerDay,
};
