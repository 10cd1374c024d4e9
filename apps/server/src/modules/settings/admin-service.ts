import {
  type AdminSettings,
  type ApiKeys,
  isMaskedSecret,
  maskSecret,
  type PublicSettingsPatch,
  SETTINGS_IMAGE_FIELDS,
  type SettingsImageField,
  type UpdateSettingsRequest,
} from "@twinline/contracts";
import type { Config } from "../../config.ts";
import type { ProviderKeyName } from "../../db/schema/index.ts";
import { redactSecrets, rememberSecret } from "../../lib/secret-values.ts";
import { HttpError } from "../../plugins/errors.ts";
import {
  discard,
  PUBLIC_UPLOADS_PREFIX,
  type ReceivedFile,
  storedNameFor,
} from "../../plugins/uploads.ts";
import { ProviderError, type ProviderName } from "../../providers/errors.ts";
import {
  llmFor,
  type ProviderDeps,
  paymentsFor,
  providerModes,
  ttsFor,
} from "../../providers/resolve.ts";
import type { FileStorage } from "../../providers/storage/index.ts";
import type { VoiceSummary } from "../../providers/tts/index.ts";
import type { KeyTestsRepository, TestedKeyName } from "./key-tests.ts";
import type { ProviderKeyChanges, ProviderKeysRepository } from "./keys-repository.ts";
import type { SettingsService } from "./service.ts";

export const SETTINGS_MESSAGES = {
  saved: "Settings saved successfully!",
  openaiValid: "OpenAI API key is valid",
  stripeValid: "Stripe API key is valid",
  elevenLabsValid: "ElevenLabs API key is valid",
  imageRemoved: (label: string) => `${label} removed successfully`,
  uploaded: (label: string) => `${label} uploaded successfully`,
  noStoredKey: (provider: ProviderName) =>
    `No ${provider} key is saved yet: enter the key to test it`,
  imageTooLarge: "File is too large (max 5 MB)",
  notAnImage: "Only PNG, JPEG, GIF, WebP, AVIF, ICO or SVG images are allowed",
  faviconType: "The favicon must be an ICO, PNG or SVG image",
} as const;

const IMAGE_EXTS = new Set(["png", "jpg", "gif", "webp", "avif", "ico", "svg"]);
const FAVICON_EXTS = new Set(["ico", "png", "svg"]);

type ImageKind = (typeof SETTINGS_IMAGE_FIELDS)[SettingsImageField]["kind"];

export const IMAGE_FIELD_OF_KIND = Object.fromEntries(
  Object.entries(SETTINGS_IMAGE_FIELDS).map(([field, { kind }]) => [kind, field]),
) as Record<ImageKind, SettingsImageField>;

export interface AdminSettingsService {
  read(): Promise<AdminSettings>;
  save(request: UpdateSettingsRequest): Promise<AdminSettings>;
  testOpenAi(apiKey: string): Promise<string[]>;
  testStripe(apiKey: string): Promise<void>;
  testElevenLabs(apiKey: string): Promise<VoiceSummary[]>;
  /** Stores a received image under `field` (checked by content), deleting the previous one. */
  saveImage(file: ReceivedFile): Promise<AdminSettings>;
  removeImage(kind: ImageKind): Promise<AdminSettings>;
}

export interface AdminSettingsDeps {
  config: Config;
  settings: SettingsService;
  keys: ProviderKeysRepository;
  providers: ProviderDeps;
  publicFiles: FileStorage;
  keyTests: KeyTestsRepository;
  onFileDeleteFailed?: (name: string, error: unknown) => void;
}

/** Which stored key each field of apiKeys is. */
const KEY_FIELDS: { name: ProviderKeyName; get: (keys: ApiKeys) => string }[] = [
  { name: "openai", get: (keys) => keys.openai },
  { name: "stripeSecret", get: (keys) => keys.stripe.secret },
  { name: "stripePublishable", get: (keys) => keys.stripe.publishable },
  { name: "elevenLabs", get: (keys) => keys.elevenLabs },
];

function imageOf(
  settings: { aiProfile: { aiProfileImage: string } } & Record<string, unknown>,
  field: SettingsImageField,
) {
  return field === "aiProfileImage"
    ? settings.aiProfile.aiProfileImage
    : String(settings[field] ?? "");
}

function patchFor(field: SettingsImageField, value: string): PublicSettingsPatch {
  return field === "aiProfileImage" ? { aiProfile: { aiProfileImage: value } } : { [field]: value };
}

/** The stored file name behind a setting's "/uploads/<name>", if it is one of ours. */
function storedNameOf(url: string): string | undefined {
  return url.startsWith(PUBLIC_UPLOADS_PREFIX)
    ? url.slice(PUBLIC_UPLOADS_PREFIX.length)
    : undefined;
}

export function createAdminSettingsService(deps: AdminSettingsDeps): AdminSettingsService {
  const { config, settings, keys } = deps;

  const read = async (): Promise<AdminSettings> => {
    const [publicSettings, stored, providers] = await Promise.all([
      settings.get(),
      keys.read(),
      providerModes(deps.providers),
    ]);
    const keyTests = await deps.keyTests.ofStored(stored);
    return {
      ...structuredClone(publicSettings),
      apiKeys: {
        openai: maskSecret(stored.openai ?? ""),
        stripe: {
          secret: maskSecret(stored.stripeSecret ?? ""),
          publishable: maskSecret(stored.stripePublishable ?? ""),
        },
        elevenLabs: maskSecret(stored.elevenLabs ?? ""),
      },
      providers,
      keyTests,
      // The chat bubble's script at PUBLIC_URL, for the snippet the admin copies (decision 0085).
      embedScriptUrl: new URL("/embed.js", config.publicUrl).href,
    };
  };

  /** The key to test: the one entered, or the stored one when the form still shows it masked. */
  const keyToTest = async (provider: ProviderName, name: ProviderKeyName, apiKey: string) => {
    if (!isMaskedSecret(apiKey)) {
      // A key being tried is a secret too: the provider may quote it back in its refusal.
      if (name !== "stripePublishable") rememberSecret(apiKey);
      return apiKey;
    }
    const stored = (await keys.read())[name];
    if (!stored) throw new HttpError(400, SETTINGS_MESSAGES.noStoredKey(provider));
    return stored;
  };

  /** Runs a key's test and remembers its outcome for that key (a refusal is one). */
  const tested = async <T>(name: TestedKeyName, key: string, test: () => Promise<T>) => {
    try {
      const result = await test();
      await deps.keyTests.record(name, key, true, "");
      return result;
    } catch (error) {
      if (error instanceof ProviderError) {
        await deps.keyTests.record(name, key, false, redactSecrets(error.message));
      }
      return refused(error);
    }
  };

  const refused = (error: unknown): never => {
    if (error instanceof ProviderError) {
      throw new HttpError(400, error.message, { provider: error.provider, status: error.status });
    }
    throw error;
  };

  const deleteQuietly = async (name: string | undefined) => {
    if (!name) return;
    try {
      await deps.publicFiles.delete(name);
    } catch (error) {
      deps.onFileDeleteFailed?.(name, error);
    }
  };

  return {
    read,

    async save(request) {
      const changes: ProviderKeyChanges = {};
      for (const { name, get } of KEY_FIELDS) {
        const value = get(request.apiKeys).trim();
        // A masked value is the form showing the stored key back: keep it.
        if (isMaskedSecret(value)) continue;
        changes[name] = value === "" ? null : value;
      }
      const {
        apiKeys: _keys,
        lightThemeLogo: _l,
        darkThemeLogo: _d,
        favicon: _f,
        ...rest
      } = request;
      // Images change only through upload and delete (their files come and go with them).
      const { aiProfileImage: _a, ...aiProfile } = rest.aiProfile;
      // Settings and keys in one transaction: a failed save changes neither.
      const alongside = Object.keys(changes).length > 0 ? [keys.writeStep(changes)] : [];
      // An absent site name or contact address keeps the stored one (undefined would overwrite it).
      const {
        siteName,
        contactEmail,
        anonymousMessages,
        anonymousMessagesPerAddressPerDay,
        anonymousMessagesPerDay,
        embedOrigins,
        ...others
      } = rest;
      await settings.update(
        {
          ...others,
          ...(siteName === undefined ? {} : { siteName }),
          ...(contactEmail === undefined ? {} : { contactEmail }),
          ...(anonymousMessages === undefined ? {} : { anonymousMessages }),
          ...(anonymousMessagesPerAddressPerDay === undefined
            ? {}
            : { anonymousMessagesPerAddressPerDay }),
          ...(anonymousMessagesPerDay === undefined ? {} : { anonymousMessagesPerDay }),
          // Listed once each, in the operator's order (decision 0085).
          ...(embedOrigins === undefined ? {} : { embedOrigins: [...new Set(embedOrigins)] }),
          aiProfile,
        },
        alongside,
      );
      return read();
    },

    async testOpenAi(apiKey) {
      const key = await keyToTest("OpenAI", "openai", apiKey);
      return tested("openai", key, () => llmFor(config, key).listModels());
    },

    async testStripe(apiKey) {
      const key = await keyToTest("Stripe", "stripeSecret", apiKey);
      await tested("stripeSecret", key, () => paymentsFor(config, key).retrieveBalance());
    },

    async testElevenLabs(apiKey) {
      const key = await keyToTest("ElevenLabs", "elevenLabs", apiKey);
      return tested("elevenLabs", key, () => ttsFor(config, key).listVoices());
    },

    async saveImage(file) {
      const field = file.field as SettingsImageField;
      const allowed = field === "favicon" ? FAVICON_EXTS : IMAGE_EXTS;
      if (!file.kind || !allowed.has(file.kind.ext)) {
        await discard(file);
        throw new HttpError(
          400,
          field === "favicon" ? SETTINGS_MESSAGES.faviconType : SETTINGS_MESSAGES.notAnImage,
          {
            field,
          },
        );
      }
      const name = storedNameFor(file.kind);
      await deps.publicFiles.putFile(file.temporaryPath, name);
      let before: string;
      try {
        // What the field held is read under the same row lock as the change: of two parallel
        // uploads, each deletes exactly the file its own change replaced, so none is orphaned.
        const { before: previous } = await settings.replace(
          patchFor(field, `${PUBLIC_UPLOADS_PREFIX}${name}`),
        );
        before = imageOf(previous, field);
      } catch (error) {
        await deleteQuietly(name);
        throw error;
      }
      await deleteQuietly(storedNameOf(before));
      return read();
    },

    async removeImage(kind) {
      const field = IMAGE_FIELD_OF_KIND[kind];
      const { before } = await settings.replace(patchFor(field, ""));
      await deleteQuietly(storedNameOf(imageOf(before, field)));
      return read();
    },
  };
}
