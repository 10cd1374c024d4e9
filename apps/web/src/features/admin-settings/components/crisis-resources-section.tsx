import {
  type AdminSettings,
  type CrisisResource,
  crisisResourcesSchema,
} from "@twinline/contracts";
import { Plus, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { FormMessage, TextField } from "@/components/ui/field";
import { Section } from "@/components/ui/section";
import { useSavedTick } from "@/hooks/use-saved-tick";
import { errorMessage } from "@/lib/api-client";
import { toUpdateRequest } from "../api/settings";
import { useLatestSettings, useSaveSettings } from "../hooks/use-settings";
import { SaveButton } from "./ui";

export const CRISIS_RESOURCES_TEXT = {
  title: "Crisis Resources",
  description:
    "The crisis lines the caring message lists when a fan's message suggests suicide or self-harm (see the Safety page). Country: two-letter codes (US, or GB IE for several), or INT for a resource shown everywhere.",
  saved: "Crisis resources saved",
  saveFailed: "Failed to save crisis resources",
  add: "Add resource",
} as const;

type Field = keyof CrisisResource;
type RowErrors = Partial<Record<Field, string>>;

const EMPTY: CrisisResource = { country: "", name: "", contact: "", url: "" };

/** The list's problems by row and field, as the contract words them. */
function validate(rows: CrisisResource[]): { errors: RowErrors[]; list?: string } {
  const parsed = crisisResourcesSchema.safeParse(rows);
  const errors: RowErrors[] = rows.map(() => ({}));
  if (parsed.success) return { errors };
  let list: string | undefined;
  for (const issue of parsed.error.issues) {
    const [index, field] = issue.path;
    if (typeof index === "number" && typeof field === "string") {
      const row = errors[index];
      if (row && !row[field as Field]) row[field as Field] = issue.message;
    } else list ??= issue.message;
  }
  return list === undefined ? { errors } : { errors, list };
}

/** The operator's crisis lines, per country: a list of its own saved with the settings. */
export function CrisisResourcesSection({ settings }: { settings: AdminSettings }) {
  const [rows, setRows] = useState<CrisisResource[]>(() =>
    settings.crisisResources.map((row) => ({ ...row })),
  );
  const [errors, setErrors] = useState<RowErrors[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, showSaved] = useSavedTick();
  const latest = useLatestSettings();
  const save = useSaveSettings();
  const formId = useId();

  const change = (index: number, field: Field, value: string) => {
    setFailure(null);
    setRows((current) =>
      current.map((row, at) => (at === index ? { ...row, [field]: value } : row)),
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validate(rows);
    setErrors(checked.errors);
    if (checked.list || checked.errors.some((row) => Object.keys(row).length > 0)) {
      setFailure(checked.list ?? "Please fix the validation errors");
      return;
    }
    const body = { ...toUpdateRequest(latest() ?? settings), crisisResources: rows };
    save.mutate(body, {
      onSuccess: () => {
        toast.success(CRISIS_RESOURCES_TEXT.saved);
        showSaved();
      },
      onError: (error) => {
        toast.error(CRISIS_RESOURCES_TEXT.saveFailed);
        setFailure(errorMessage(error, CRISIS_RESOURCES_TEXT.saveFailed));
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Section title={CRISIS_RESOURCES_TEXT.title} description={CRISIS_RESOURCES_TEXT.description}>
        <ol className="space-y-4">
          {rows.map((row, index) => {
            const id = (field: Field) => `${formId}-${index}-${field}`;
            const rowErrors = errors[index] ?? {};
            return (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own
                key={index}
                className="grid gap-3 rounded-xl border border-stone-200 p-3 sm:grid-cols-[6rem_1fr_1fr_1fr_auto] dark:border-white/10"
                data-testid="crisis-resource-row"
              >
                <TextField
                  label="Country"
                  id={id("country")}
                  value={row.country}
                  error={rowErrors.country}
                  onChange={(event) => change(index, "country", event.target.value)}
                />
                <TextField
                  label="Name"
                  id={id("name")}
                  value={row.name}
                  error={rowErrors.name}
                  onChange={(event) => change(index, "name", event.target.value)}
                />
                <TextField
                  label="Phone or text"
                  id={id("contact")}
                  value={row.contact}
                  error={rowErrors.contact}
                  onChange={(event) => change(index, "contact", event.target.value)}
                />
                <TextField
                  label="Link"
                  id={id("url")}
                  type="url"
                  inputMode="url"
                  value={row.url}
                  error={rowErrors.url}
                  onChange={(event) => change(index, "url", event.target.value)}
                />
                <button
                  type="button"
                  onClick={() => setRows((current) => current.filter((_, at) => at !== index))}
                  disabled={rows.length <= 1}
                  aria-label={`Remove ${row.name || "this resource"}`}
                  className={buttonClasses("ghost", "sm", "self-end")}
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </button>
              </li>
            );
          })}
        </ol>
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
          <button
            type="button"
            onClick={() => setRows((current) => [...current, { ...EMPTY }])}
            disabled={rows.length >= 50}
            className={buttonClasses("secondary", "sm")}
          >
            <Plus aria-hidden="true" className="size-4" />
            {CRISIS_RESOURCES_TEXT.add}
          </button>
          <SaveButton saving={save.isPending} saved={saved} label="Save Crisis Resources" />
        </div>
        {failure && (
          <div className="mt-3">
            <FormMessage>{failure}</FormMessage>
          </div>
        )}
      </Section>
    </form>
  );
}
