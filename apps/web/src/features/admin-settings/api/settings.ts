import { queryOptions } from "@tanstack/react-query";
import {
  type AdminSettings,
  adminSettingsResponseSchema,
  adminSettingsSchema,
  SETTINGS_IMAGE_FIELDS,
  type SettingsImageField,
  testElevenLabsResponseSchema,
  testOpenAiResponseSchema,
  testStripeResponseSchema,
  type UpdateSettingsRequest,
} from "@twinline/contracts";
import { ApiError, api } from "@/lib/api-client";

/**
 * The operator's settings calls (admin-side spec, section 7). Every call on a URL without /admin
 * passes `token: "admin"` (decision 0008).
 */

export const adminSettingsKeys = {
  all: ["admin", "settings"] as const,
};

/** Thrown when an answer does not have the contract's shape. */
export class UnexpectedAnswerError extends Error {}

/** GET /api/admin/settings: the settings with masked keys and the providers' modes. */
export async function fetchAdminSettings(signal?: AbortSignal): Promise<AdminSettings> {
  const body = await api.get("/api/admin/settings", { signal });
  const parsed = adminSettingsResponseSchema.safeParse(body);
  if (!parsed.success) throw new UnexpectedAnswerError("Failed to load settings");
  return parsed.data.data;
}

export const adminSettingsQuery = () =>
  queryOptions({
    queryKey: adminSettingsKeys.all,
    queryFn: ({ signal }) => fetchAdminSettings(signal),
  });

/** The settings as PUT /api/settings takes them: everything but the providers' modes. */
export function toUpdateRequest(settings: AdminSettings): UpdateSettingsRequest {
  const { providers: _providers, ...rest } = settings;
  return rest;
}

/** The settings an answer carries, or null when it carries none in the contract's shape. */
function settingsOf(body: unknown): AdminSettings | null {
  const parsed = adminSettingsSchema.safeParse((body as { data?: unknown } | undefined)?.data);
  return parsed.success ? parsed.data : null;
}

/** PUT /api/settings with the full settings object; resolves to the saved settings, if sent. */
export async function saveSettings(request: UpdateSettingsRequest): Promise<AdminSettings | null> {
  return settingsOf(await api.put("/api/settings", request, { token: "admin" }));
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
  const name = PROVIDER_NAMES[provider];
  let body: unknown;
  try {
    body = await api.post(`/api/settings/test-${provider}`, { apiKey }, { token: "admin" });
  } catch (error) {
    return { ok: false, message: `${name} API key test failed: ${reasonOf(error)}` };
  }
  if (provider === "openai") {
    const parsed = testOpenAiResponseSchema.safeParse(body);
    if (parsed.success) {
      return { ok: true, message: parsed.data.message, models: parsed.data.data.availableModels };
    }
  } else if (provider === "elevenlabs") {
    const parsed = testElevenLabsResponseSchema.safeParse(body);
    if (parsed.success) {
      return {
        ok: true,
        message: parsed.data.message,
        voices: parsed.data.data.availableVoices.map((v) => ({ id: v.voice_id, name: v.name })),
      };
    }
  } else {
    const parsed = testStripeResponseSchema.safeParse(body);
    if (parsed.success) return { ok: true, message: parsed.data.message };
  }
  return { ok: false, message: `API key is invalid: ${invalidReasonOf(body)}` };
}

function reasonOf(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { message?: unknown; error?: unknown } | undefined;
    if (typeof body?.message === "string" && body.message) return body.message;
    if (typeof body?.error === "string" && body.error) return body.error;
    if (error.kind !== "http") return error.message;
  }
  return "Unknown error";
}

function invalidReasonOf(body: unknown): string {
  const { error, message } = (body ?? {}) as { error?: unknown; message?: unknown };
  if (typeof error === "string" && error) return error;
  if (typeof message === "string" && message) return message;
  return "Unknown error";
}

/** POST /api/settings/upload with one file under its field; resolves to the new settings. */
export async function uploadSettingsImage(
  field: SettingsImageField,
  file: File,
): Promise<AdminSettings | null> {
  const form = new FormData();
  form.append(field, file);
  return settingsOf(await api.upload("/api/settings/upload", form, { token: "admin" }));
}

/** DELETE /api/settings/image/{kind}; resolves to the new settings. */
export async function deleteSettingsImage(
  field: SettingsImageField,
): Promise<AdminSettings | null> {
  const { kind } = SETTINGS_IMAGE_FIELDS[field];
  return settingsOf(await api.delete(`/api/settings/image/${kind}`, { token: "admin" }));
}

/** The image URL a settings object holds for a field. */
export function imageOf(settings: AdminSettings, field: SettingsImageField): string {
  return field === "aiProfileImage" ? settings.aiProfile.aiProfileImage : settings[field];
}

/** "The server message, or Unknown error" for an upload failure (admin-side spec, section 8). */
export function uploadFailureReason(error: unknown): string {
  return reasonOf(error);
}
