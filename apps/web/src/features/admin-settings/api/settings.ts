import { queryOptions } from "@tanstack/react-query";
import {
  type AdminSettings,
  routes,
  SETTINGS_IMAGE_FIELDS,
  type SettingsImageField,
  type UpdateSettingsRequest,
} from "@twinline/contracts";
import { ApiError, callRoute, errorMessage } from "@/lib/api-client";

/**
 * The operator's settings calls (admin-side spec, section 7): routes.settings, each sent with the
 * admin token because its definition's access is "admin" (decision 0086).
 */

export const adminSettingsKeys = {
  all: ["admin", "settings"] as const,
};

/** GET /api/admin/settings: the settings with masked keys and the providers' modes. */
export async function fetchAdminSettings(signal?: AbortSignal): Promise<AdminSettings> {
  const answer = await callRoute(routes.settings.admin, { signal });
  return answer.data;
}

export const adminSettingsQuery = () =>
  queryOptions({
    queryKey: adminSettingsKeys.all,
    queryFn: ({ signal }) => fetchAdminSettings(signal),
  });

/** The settings as PUT /api/settings takes them: everything but the providers' modes. */
export function toUpdateRequest(settings: AdminSettings): UpdateSettingsRequest {
  const { providers: _providers, embedScriptUrl: _script, ...rest } = settings;
  return rest;
}

/** PUT /api/settings with the full settings object; resolves to the saved settings. */
export async function saveSettings(request: UpdateSettingsRequest): Promise<AdminSettings> {
  const answer = await callRoute(routes.settings.save, { body: request });
  return answer.data;
}

export type KeyProvider = "openai" | "stripe" | "elevenlabs";

export const PROVIDER_NAMES: Record<KeyProvider, string> = {
  openai: "OpenAI",
  stripe: "Stripe",
  elevenlabs: "ElevenLabs",
};

export type KeyTestResult =
  | { ok: true; message: string; models?: string[]; voices?: { id: string; name: string }[] }
  | { ok: false; message: string };

/**
 * POST /api/settings/test-{provider} with the key as entered (a masked key tests the stored one).
 * A failure answer gives "{Provider} API key test failed: {message}"; a 2xx answer that does not
 * report success gives "API key is invalid: {error}" (admin-side spec, section 8).
 */
export async function testApiKey(provider: KeyProvider, apiKey: string): Promise<KeyTestResult> {
  const body = { apiKey };
  try {
    if (provider === "openai") {
      const answer = await callRoute(routes.settings.testOpenAi, { body });
      return { ok: true, message: answer.message, models: answer.data.availableModels };
    }
    if (provider === "elevenlabs") {
      const answer = await callRoute(routes.settings.testElevenLabs, { body });
      return {
        ok: true,
        message: answer.message,
        voices: answer.data.availableVoices.map((v) => ({ id: v.voice_id, name: v.name })),
      };
    }
    const answer = await callRoute(routes.settings.testStripe, { body });
    return { ok: true, message: answer.message };
  } catch (error) {
    // A 2xx answer that does not report success is off the contract: "API key is invalid".
    if (error instanceof ApiError && error.kind === "invalid-response") {
      return { ok: false, message: `API key is invalid: ${invalidReasonOf(error.body)}` };
    }
    const reason = errorMessage(error, UNKNOWN_ERROR);
    return { ok: false, message: `${PROVIDER_NAMES[provider]} API key test failed: ${reason}` };
  }
}

/** The reason the spec shows when a failure has no message of its own. */
export const UNKNOWN_ERROR = "Unknown error";

function invalidReasonOf(body: unknown): string {
  const { error, message } = (body ?? {}) as { error?: unknown; message?: unknown };
  if (typeof error === "string" && error) return error;
  if (typeof message === "string" && message) return message;
  return UNKNOWN_ERROR;
}

/** POST /api/settings/upload with one file under its field; resolves to the new settings. */
export async function uploadSettingsImage(
  field: SettingsImageField,
  file: File,
): Promise<AdminSettings> {
  const form = new FormData();
  form.append(field, file);
  const answer = await callRoute(routes.settings.uploadImage, { body: form });
  return answer.data;
}

/** DELETE /api/settings/image/{kind}; resolves to the new settings. */
export async function deleteSettingsImage(field: SettingsImageField): Promise<AdminSettings> {
  const { kind } = SETTINGS_IMAGE_FIELDS[field];
  const answer = await callRoute(routes.settings.removeImage, { params: { kind } });
  return answer.data;
}

/** The image URL a settings object holds for a field. */
export function imageOf(settings: AdminSettings, field: SettingsImageField): string {
  return field === "aiProfileImage" ? settings.aiProfile.aiProfileImage : settings[field];
}
