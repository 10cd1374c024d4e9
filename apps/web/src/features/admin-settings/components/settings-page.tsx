import { useQuery } from "@tanstack/react-query";
import {
  type AdminSettings,
  AGE_RULES,
  SOCIAL_NETWORKS,
  type SocialNetwork,
  TRIAL_CAP_LIMITS,
  type UpdateSettingsRequest,
} from "@twinline/contracts";
import { useEffect, useId, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import toast from "react-hot-toast";
import { FormMessage, inputClasses, TextField } from "@/components/ui/field";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useSavedTick } from "@/hooks/use-saved-tick";
import { errorMessage } from "@/lib/api-client";
import { adminSettingsQuery, toUpdateRequest } from "../api/settings";
import {
  contractResolver,
  formToSettings,
  type SettingsField,
  type SettingsFormValues,
  settingsToForm,
  validateSettings,
} from "../api/validation";
import { useLatestSettings, useSaveSettings } from "../hooks/use-settings";
import { CrisisResourcesSection } from "./crisis-resources-section";
import { EmbedSnippet } from "./embed-snippet";
import { ImageUploadField } from "./image-upload-field";
import { PagesSection } from "./pages-section";
import { ProviderModes } from "./provider-modes";
import { SaveButton, Toggle } from "./ui";

export const SETTINGS_MESSAGES = {
  saved: "Settings saved successfully!",
  saveFailed: "Failed to save settings",
  invalid: "Please fix the validation errors",
  loadFailed: "Failed to load settings",
} as const;

const SOCIAL_LABELS: Record<SocialNetwork, string> = {
  twitter: "Twitter",
  instagram: "Instagram",
  youtube: "YouTube",
  facebook: "Facebook",
  tiktok: "TikTok",
  snapchat: "Snapchat",
  onlyfans: "OnlyFans",
};

/** /admin/Settings: General, Logo, AI Profile and Social Media sections (admin-side spec, section 2). */
export function AdminSettingsPage() {
  const settings = useQuery(adminSettingsQuery());

  useDocumentTitle("Settings · Twinline Admin");

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader
        title="Settings"
        description="What users see and what they get: limits, logos, the persona's profile, social links and the site's pages."
      />
      {settings.isPending ? (
        <LoadingState label="Loading settings" />
      ) : settings.isError ? (
        <ErrorState message={SETTINGS_MESSAGES.loadFailed} onRetry={() => settings.refetch()} />
      ) : (
        <>
          <SettingsForm settings={settings.data} />
          <CrisisResourcesSection settings={settings.data} />
          <PagesSection />
        </>
      )}
    </div>
  );
}

function SettingsForm({ settings }: { settings: AdminSettings }) {
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, showSaved] = useSavedTick();
  const latest = useLatestSettings();
  const save = useSaveSettings();
  const formId = useId();
  const fieldId = (field: SettingsField) => `${formId}-${field.replace(".", "-")}`;
  // The form's strings become the full PUT /api/settings body (keys and images as stored),
  // checked with the contract's schema; the form submits that body.
  const [resolver] = useState(() =>
    contractResolver(
      (values: SettingsFormValues) => formToSettings(values, toUpdateRequest(latest() ?? settings)),
      (_values, request: UpdateSettingsRequest) => validateSettings(request),
    ),
  );
  const {
    register,
    control,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<SettingsFormValues, unknown, UpdateSettingsRequest>({
    resolver,
    defaultValues: settingsToForm(toUpdateRequest(settings)),
  });

  // Any change clears the last save's failure.
  useEffect(() => {
    const subscription = watch(() => setFailure(null));
    return () => subscription.unsubscribe();
  }, [watch]);

  const onSubmit = handleSubmit(
    (body) => {
      setFailure(null);
      save.mutate(body, {
        onSuccess: () => {
          toast.success(SETTINGS_MESSAGES.saved);
          showSaved();
        },
        onError: (error) => {
          toast.error(SETTINGS_MESSAGES.saveFailed);
          setFailure(errorMessage(error, SETTINGS_MESSAGES.saveFailed));
        },
      });
    },
    // react-hook-form focuses the first field in error.
    () => toast.error(SETTINGS_MESSAGES.invalid),
  );

  const numberField = (
    field: Extract<SettingsField, keyof SettingsFormValues>,
    label: string,
    hint: string,
    min = 0,
    max?: number,
  ) => (
    <TextField
      label={label}
      id={fieldId(field)}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      step={1}
      error={errors[field]?.message}
      hint={hint}
      {...register(field)}
    />
  );

  // The images save themselves: they show from the settings as stored, not from the form.
  const current = settings;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <Section
        title="Provider status"
        description="Read only. Keys are set on the API Keys screen."
      >
        <ProviderModes modes={current.providers} keyTests={current.keyTests} />
      </Section>

      <Section title="General Settings">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Site Name"
            id={fieldId("siteName")}
            error={errors.siteName?.message}
            hint="The operator's name in the footer and the legal pages."
            maxLength={80}
            className="sm:col-span-2"
            {...register("siteName")}
          />
          <TextField
            label="Contact E-mail"
            id={fieldId("contactEmail")}
            type="email"
            error={errors.contactEmail?.message}
            hint="Shown on the Contact page; its form mails this address. Empty: no form."
            maxLength={254}
            className="sm:col-span-2"
            {...register("contactEmail")}
          />
          {numberField("defaultCredits", "Default Credits", "Credits a new user starts with.")}
          {numberField(
            "maxWordsPerMessage",
            "Max Words per Message",
            "The longest chat message a user may send.",
          )}
          {numberField(
            "freeMessagesPerDay",
            "Free Messages per Day",
            "For users without a subscription.",
          )}
          {numberField(
            "anonymousMessages",
            "Messages Without an Account",
            "Visitors may try the chat on the landing page before signing up. 0 turns it off.",
          )}
          {numberField(
            "anonymousMessagesPerAddressPerDay",
            "Trial Messages per Address per Day",
            "All visitors from one network together, without an account: bounds what one network spends of your AI provider budget.",
            TRIAL_CAP_LIMITS.perAddressPerDay.min,
            TRIAL_CAP_LIMITS.perAddressPerDay.max,
          )}
          {numberField(
            "anonymousMessagesPerDay",
            "Trial Messages per Day, Whole Site",
            "All visitors without an account together: bounds what the trial spends of your AI provider budget in a day.",
            TRIAL_CAP_LIMITS.perDay.min,
            TRIAL_CAP_LIMITS.perDay.max,
          )}
          {numberField(
            "creditsPerMinute",
            "Credits per Minute",
            "The price of a voice-call minute (at least 1).",
            1,
          )}
          {numberField(
            "minimumAge",
            "Minimum Age",
            "Sign-up refuses anyone younger (at least 13).",
            AGE_RULES.lowestMinimumAge,
          )}
        </div>
        <div className="mt-4">
          <Controller
            control={control}
            name="enableVoiceConversation"
            render={({ field }) => (
              <Toggle
                label="Enable Voice Conversation"
                description="Offer voice calls across the site."
                checked={field.value}
                onChange={field.onChange}
              />
            )}
          />
        </div>
      </Section>

      <Section
        title="Logo Settings"
        description="Images upload as soon as you pick them; Save Settings is not needed for them."
      >
        <div className="grid gap-6 sm:grid-cols-2">
          <ImageUploadField
            field="lightThemeLogo"
            settings={current}
            hint="Shown in the light theme."
          />
          <ImageUploadField
            field="darkThemeLogo"
            settings={current}
            hint="Shown in the dark theme."
          />
          <ImageUploadField
            field="favicon"
            settings={current}
            accept=".ico,.png,.svg,image/x-icon,image/vnd.microsoft.icon,image/png,image/svg+xml"
            hint=".ico, .png or .svg (32x32 or 16x16 recommended)"
          />
        </div>
      </Section>

      <Section title="AI Profile Settings">
        <div className="space-y-4">
          <ImageUploadField
            field="aiProfileImage"
            settings={current}
            round
            hint="The persona's picture on the landing page and in chat."
          />
          <TextField
            label="AI Name"
            id={fieldId("aiName")}
            error={errors.aiName?.message}
            maxLength={100}
            {...register("aiName")}
          />
          <div>
            <label
              htmlFor={fieldId("promotionalMessage")}
              className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
            >
              Promotional Message
            </label>
            <textarea
              id={fieldId("promotionalMessage")}
              rows={3}
              aria-invalid={errors.promotionalMessage ? true : undefined}
              {...register("promotionalMessage")}
              className={`${inputClasses} h-auto py-2.5`}
            />
            {errors.promotionalMessage && (
              <p className="mt-1.5 text-sm text-red-600 dark:text-red-400">
                {errors.promotionalMessage.message}
              </p>
            )}
          </div>
          <Controller
            control={control}
            name="aiEnableVoiceConversation"
            render={({ field }) => (
              <Toggle
                label="Enable Voice Conversation for the AI"
                description="Let users call the persona."
                checked={field.value}
                onChange={field.onChange}
              />
            )}
          />
        </div>
      </Section>

      <Section title="Social Media Profiles" description="Full links, shown in the site's footer.">
        <div className="grid gap-4 sm:grid-cols-2">
          {SOCIAL_NETWORKS.map((network) => (
            <TextField
              key={network}
              label={SOCIAL_LABELS[network]}
              id={fieldId(`social.${network}`)}
              type="url"
              inputMode="url"
              placeholder={`https://${network === "twitter" ? "x" : network}.com/...`}
              error={errors.social?.[network]?.message}
              {...register(`social.${network}`)}
            />
          ))}
        </div>
      </Section>

      <Section
        title="Chat on Your Site"
        description="A chat bubble on your own website opens the twin's chat."
      >
        <div className="space-y-4">
          <EmbedSnippet scriptUrl={current.embedScriptUrl} id={`${formId}-embed-snippet`} />
          <div>
            <label
              htmlFor={fieldId("embedOrigins")}
              className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
            >
              Allowed Sites
            </label>
            <textarea
              id={fieldId("embedOrigins")}
              rows={3}
              placeholder="https://example.com"
              aria-invalid={errors.embedOrigins ? true : undefined}
              aria-describedby={`${fieldId("embedOrigins")}-hint`}
              {...register("embedOrigins")}
              className={`${inputClasses} h-auto py-2.5 font-mono`}
            />
            {errors.embedOrigins && (
              <p className="mt-1.5 text-sm text-red-600 dark:text-red-400">
                {errors.embedOrigins.message}
              </p>
            )}
            <p
              id={`${fieldId("embedOrigins")}-hint`}
              className="mt-1.5 text-sm text-stone-600 dark:text-stone-400"
            >
              One site address per line, such as https://example.com (https, or http only for
              localhost). The bubble works only on these sites.
            </p>
          </div>
        </div>
      </Section>

      {failure && <FormMessage>{failure}</FormMessage>}
      <div className="flex justify-end">
        <SaveButton saving={save.isPending} saved={saved} label="Save Settings" />
      </div>
    </form>
  );
}
