import { type AdminSettings, defaultSiteSettings, routes } from "@twinline/contracts";
import { on } from "@/test/api-mock";

/** The OpenAI key as the server shows it back: masked but for its end. */
export const MASKED_OPENAI = "sk-••••••••abcd";

/** No provider key: everything runs on the offline implementations. */
export const OFFLINE_PROVIDERS: AdminSettings["providers"] = {
  llm: "offline",
  stt: "offline",
  tts: "offline",
  payments: "sandbox",
};

/** The admin settings answer: the settings' defaults, a masked OpenAI key, offline providers. */
export function adminSettings(patch: Partial<AdminSettings> = {}): AdminSettings {
  return {
    ...defaultSiteSettings,
    apiKeys: { openai: MASKED_OPENAI, stripe: { secret: "", publishable: "" }, elevenLabs: "" },
    providers: OFFLINE_PROVIDERS,
    keyTests: { openai: null, stripe: null, elevenLabs: null },
    embedScriptUrl: "http://localhost:3000/embed.js",
    ...patch,
  };
}

/** GET /api/admin/settings answering `settings`, for mockAdminApi's routes. */
export function settingsRoute(settings: AdminSettings) {
  return on(routes.settings.admin, { success: true, data: settings });
}
