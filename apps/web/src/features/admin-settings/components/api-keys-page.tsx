import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type AdminSettings,
  isMaskedSecret,
  type UpdateSettingsRequest,
} from "@twinline/contracts";
import { clsx } from "clsx";
import { CheckCircle2, FlaskConical, LoaderCircle, XCircle } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { FormMessage, PasswordField, TextField } from "@/components/ui/field";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useSavedTick } from "@/hooks/use-saved-tick";
import { errorMessage } from "@/lib/api-client";
import {
  adminSettingsKeys,
  adminSettingsQuery,
  type KeyProvider,
  type KeyTestResult,
  PROVIDER_NAMES,
  testApiKey,
  toUpdateRequest,
} from "../api/settings";
import {
  type ApiKeysField,
  type ApiKeysFormValues,
  apiKeysToForm,
  contractResolver,
  formToApiKeys,
  parseInteger,
  validateApiKeys,
} from "../api/validation";
import { useLatestSettings, useSaveSettings } from "../hooks/use-settings";
import { ProviderModes } from "./provider-modes";
import { SaveButton } from "./ui";

export const API_CONFIG_MESSAGES = {
  invalid: "Please fix the validation errors",
  saveFailed: "Failed to save API configuration",
  saved: "API configuration saved successfully",
  loadFailed: "Failed to load API configuration",
} as const;

/** /admin/api-keys: the API Configuration form (admin-side spec, sections 2, 5, 7, 8). */
export function AdminApiKeysPage() {
  const settings = useQuery(adminSettingsQuery());

  useDocumentTitle("API Configuration · Twinline Admin");

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader
        title="API Configuration"
        description="Provider keys and the price of a voice call. Keys are stored encrypted and shown masked; a saved key takes effect at once."
      />
      {settings.isPending ? (
        <LoadingState label="Loading API configuration" />
      ) : settings.isError ? (
        <ErrorState message={API_CONFIG_MESSAGES.loadFailed} onRetry={() => settings.refetch()} />
      ) : (
        <>
          <Section
            title="Provider status"
            description="What runs right now. Without a key a provider runs offline, so everything still works for a try-out."
          >
            <ProviderModes modes={settings.data.providers} keyTests={settings.data.keyTests} />
          </Section>
          <ApiKeysForm settings={settings.data} />
        </>
      )}
    </div>
  );
}

type TestState = { status: "testing" } | ({ status: "done" } & KeyTestResult);

function ApiKeysForm({ settings }: { settings: AdminSettings }) {
  const [failure, setFailure] = useState<string | null>(null);
  const [tests, setTests] = useState<Partial<Record<KeyProvider, TestState>>>({});
  const [saved, showSaved] = useSavedTick();
  const latest = useLatestSettings();
  const save = useSaveSettings();
  const formId = useId();
  const fieldId = (field: ApiKeysField) => `${formId}-${field}`;
  // The keys and the call price go into the full PUT /api/settings body, checked with the
  // contract's key rules; the form submits that body.
  const [resolver] = useState(() =>
    contractResolver(
      (values: ApiKeysFormValues): UpdateSettingsRequest => ({
        ...toUpdateRequest(latest() ?? settings),
        apiKeys: formToApiKeys(values),
        creditsPerMinute: parseInteger(values.creditsPerMinute),
      }),
      (values) => validateApiKeys(values),
    ),
  );
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors },
  } = useForm<ApiKeysFormValues, unknown, UpdateSettingsRequest>({
    resolver,
    defaultValues: apiKeysToForm(settings.apiKeys, settings.creditsPerMinute),
  });
  const queryClient = useQueryClient();
  const values = watch();

  /** A change clears the last failure, and a key's change its last test. */
  const change = (field: ApiKeysField) => () => {
    setFailure(null);
    const provider = PROVIDER_OF[field];
    if (provider) setTests((t) => ({ ...t, [provider]: undefined }));
  };

  async function runTest(provider: KeyProvider, field: ApiKeysField) {
    const apiKey = values[field].trim();
    if (!apiKey) return;
    setTests((t) => ({ ...t, [provider]: { status: "testing" } }));
    const result = await testApiKey(provider, apiKey);
    setTests((t) => ({ ...t, [provider]: { status: "done", ...result } }));
    // The server remembers the outcome for that key: the provider status shows it.
    void queryClient.invalidateQueries({ queryKey: adminSettingsKeys.all });
    if (result.ok) toast.success(result.message);
    else toast.error(result.message);
  }

  const onSubmit = handleSubmit(
    (body) => {
      setFailure(null);
      save.mutate(body, {
        onSuccess: (answer) => {
          toast.success(API_CONFIG_MESSAGES.saved);
          showSaved();
          // The answer carries the keys masked: the form shows them so from now on.
          reset(apiKeysToForm(answer.apiKeys, answer.creditsPerMinute));
        },
        onError: (error) => {
          toast.error(API_CONFIG_MESSAGES.saveFailed);
          setFailure(errorMessage(error, API_CONFIG_MESSAGES.saveFailed));
        },
      });
    },
    // react-hook-form focuses the first field in error, in the form's order.
    () => toast.error(API_CONFIG_MESSAGES.invalid),
  );

  const keyProps = (field: ApiKeysField) => ({
    id: fieldId(field),
    error: errors[field]?.message,
    autoComplete: "off",
    spellCheck: false,
    hint: storedHint(values[field]),
    ...register(field, { onChange: change(field) }),
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <Section title="OpenAI" description="Chat replies and speech-to-text.">
        <PasswordField label="OpenAI API Key" placeholder="sk-..." {...keyProps("openai")} />
        <TestRow
          provider="openai"
          canTest={values.openai.trim() !== ""}
          state={tests.openai}
          onTest={() => runTest("openai", "openai")}
        />
      </Section>

      <Section title="Stripe" description="Credit packages and subscriptions.">
        <div className="space-y-4">
          <div>
            <PasswordField
              label="Stripe Secret Key"
              placeholder="sk_live_... or sk_test_..."
              {...keyProps("stripeSecret")}
            />
            <TestRow
              provider="stripe"
              canTest={values.stripeSecret.trim() !== ""}
              state={tests.stripe}
              onTest={() => runTest("stripe", "stripeSecret")}
            />
          </div>
          <TextField
            label="Stripe Publishable Key"
            placeholder="pk_live_... or pk_test_..."
            {...keyProps("stripePublishable")}
            hint={
              storedHint(values.stripePublishable) ??
              "Used by the checkout page in the browser; it starts with pk_."
            }
          />
        </div>
      </Section>

      <Section title="ElevenLabs" description="The persona's voice and voice cloning.">
        <PasswordField label="ElevenLabs API Key" {...keyProps("elevenLabs")} />
        <TestRow
          provider="elevenlabs"
          canTest={values.elevenLabs.trim() !== ""}
          state={tests.elevenlabs}
          onTest={() => runTest("elevenlabs", "elevenLabs")}
        />
      </Section>

      <Section title="Voice call pricing">
        <TextField
          label="Credits per Minute"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          id={fieldId("creditsPerMinute")}
          error={errors.creditsPerMinute?.message}
          {...register("creditsPerMinute", { onChange: change("creditsPerMinute") })}
          hint="Credits a voice call costs per started minute (at least 1)."
          className="sm:max-w-xs"
        />
      </Section>

      {failure && <FormMessage>{failure}</FormMessage>}
      <div className="flex justify-end">
        <SaveButton saving={save.isPending} saved={saved} label="Save Configuration" />
      </div>
    </form>
  );
}

const PROVIDER_OF: Partial<Record<ApiKeysField, KeyProvider>> = {
  openai: "openai",
  stripeSecret: "stripe",
  elevenLabs: "elevenlabs",
};

function storedHint(value: string): string | undefined {
  if (!isMaskedSecret(value)) return undefined;
  return `A key is stored (${value}). Keep it as is, type a new one, or clear the field to remove it.`;
}

function TestRow({
  provider,
  canTest,
  state,
  onTest,
}: {
  provider: KeyProvider;
  canTest: boolean;
  state: TestState | undefined;
  onTest: () => void;
}) {
  const name = PROVIDER_NAMES[provider];
  const testing = state?.status === "testing";
  return (
    <div className="mt-3 space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={onTest}
          disabled={!canTest || testing}
          className={buttonClasses("secondary", "sm")}
        >
          {testing ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <FlaskConical aria-hidden="true" className="size-4" />
          )}
          {testing ? "Testing..." : `Test ${name} Key`}
        </button>
        {!canTest && (
          <span className="text-xs text-stone-500 dark:text-stone-400">
            Enter the key to test it.
          </span>
        )}
      </div>
      <div aria-live="polite">
        {state?.status === "done" && <TestResultBox provider={provider} result={state} />}
      </div>
    </div>
  );
}

function TestResultBox({ provider, result }: { provider: KeyProvider; result: KeyTestResult }) {
  return (
    <div
      data-testid={`test-result-${provider}`}
      className={clsx(
        "rounded-xl border px-3.5 py-3 text-sm",
        result.ok
          ? "border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-400/30 dark:bg-emerald-500/10 dark:text-emerald-200"
          : "border-red-200 bg-red-50 text-red-800 dark:border-red-400/30 dark:bg-red-500/10 dark:text-red-300",
      )}
    >
      <p className="flex items-start gap-2 break-words">
        {result.ok ? (
          <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        ) : (
          <XCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        )}
        <span className="min-w-0">{result.message}</span>
      </p>
      {result.ok && result.models && (
        <ResultList
          title={`Available models (${result.models.length})`}
          items={result.models.map((model) => ({ key: model, text: model }))}
        />
      )}
      {result.ok && result.voices && (
        <ResultList
          title={`Available voices (${result.voices.length})`}
          items={result.voices.map((voice) => ({
            key: voice.id,
            text: voice.name,
            detail: voice.id,
          }))}
        />
      )}
    </div>
  );
}

function ResultList({
  title,
  items,
}: {
  title: string;
  items: { key: string; text: string; detail?: string }[];
}) {
  return (
    <div className="mt-3">
      <p className="font-medium">{title}</p>
      {items.length === 0 ? (
        <p className="mt-1 text-stone-600 dark:text-stone-400">None</p>
      ) : (
        <ul
          aria-label={title}
          className="mt-2 max-h-48 space-y-1 overflow-y-auto rounded-lg bg-white/70 p-2 text-stone-800 dark:bg-stone-950/50 dark:text-stone-200"
        >
          {items.map((item) => (
            <li key={item.key} className="flex flex-wrap justify-between gap-x-3 break-all">
              <span>{item.text}</span>
              {item.detail && (
                <span className="font-mono text-xs text-stone-500 dark:text-stone-400">
                  {item.detail}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
