import { useMutation } from "@tanstack/react-query";
import type { AdminSettings, SettingsImageField } from "@twinline/contracts";
import { SETTINGS_IMAGE_FIELDS } from "@twinline/contracts";
import { clsx } from "clsx";
import { ImageOff, LoaderCircle, Trash2, Upload } from "lucide-react";
import { type ChangeEvent, useId, useRef, useState } from "react";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { errorMessage, mediaUrl } from "@/lib/api-client";
import { deleteSettingsImage, imageOf, UNKNOWN_ERROR, uploadSettingsImage } from "../api/settings";
import { imageFileError } from "../api/validation";
import { useApplySettings } from "../hooks/use-settings";

export const UPLOAD_FIELD_ERROR = "Failed to upload image";

/**
 * One image of the settings (persona image, light and dark logo, favicon): a preview, Upload
 * (sent at once) and Remove. Images save on their own, apart from the Save Settings button.
 */
export function ImageUploadField({
  field,
  settings,
  hint,
  accept = "image/*",
  round = false,
}: {
  field: SettingsImageField;
  settings: AdminSettings;
  hint?: string;
  accept?: string;
  round?: boolean;
}) {
  const { label } = SETTINGS_IMAGE_FIELDS[field];
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [broken, setBroken] = useState<string | null>(null);
  const apply = useApplySettings();
  const src = mediaUrl(imageOf(settings, field));

  const upload = useMutation({
    mutationFn: (file: File) => uploadSettingsImage(field, file),
    onSuccess: (answer) => {
      apply(answer);
      setFieldError(null);
      toast.success(`${label} uploaded successfully`);
    },
    onError: (error) => fail(errorMessage(error, UNKNOWN_ERROR)),
  });

  const remove = useMutation({
    mutationFn: () => deleteSettingsImage(field),
    onSuccess: apply,
    // The spec: an image delete failure is only logged.
    onError: (error) => console.error(`Failed to remove the ${label}`, error),
  });

  function fail(reason: string) {
    setFieldError(UPLOAD_FIELD_ERROR);
    toast.error(`Failed to upload image: ${reason}`);
  }

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ""; // choosing the same file again fires again
    if (!file) return;
    const problem = imageFileError(field, file);
    if (problem) {
      fail(problem);
      return;
    }
    upload.mutate(file);
  }

  const busy = upload.isPending || remove.isPending;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div data-testid={`image-field-${field}`}>
      <p
        id={`${id}-label`}
        className="mb-1.5 text-sm font-medium text-stone-800 dark:text-stone-200"
      >
        {label}
      </p>
      <div className="flex flex-wrap items-center gap-4">
        <div
          className={clsx(
            "flex size-20 shrink-0 items-center justify-center overflow-hidden border border-stone-200 bg-stone-50 dark:border-white/10 dark:bg-stone-950",
            round ? "rounded-full" : "rounded-xl",
            field === "darkThemeLogo" && "bg-stone-900 dark:bg-stone-950",
            field === "lightThemeLogo" && "bg-white",
          )}
        >
          {src && broken !== src ? (
            <img
              src={src}
              alt={`${label} preview`}
              className={clsx("size-full", round ? "object-cover" : "object-contain p-1.5")}
              onError={() => setBroken(src)}
            />
          ) : (
            <ImageOff aria-hidden="true" className="size-6 text-stone-400" />
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <input
            ref={inputRef}
            id={id}
            type="file"
            accept={accept}
            onChange={onFile}
            data-testid={`image-input-${field}`}
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
          />
          <button
            type="button"
            onClick={() => inputRef.current?.click()}
            disabled={busy}
            aria-describedby={
              [hint ? hintId : null, fieldError ? errorId : null].filter(Boolean).join(" ") ||
              undefined
            }
            className={buttonClasses("secondary", "sm")}
          >
            {upload.isPending ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : (
              <Upload aria-hidden="true" className="size-4" />
            )}
            {upload.isPending ? "Uploading..." : src ? `Replace ${label}` : `Upload ${label}`}
          </button>
          {src && (
            <button
              type="button"
              onClick={() => remove.mutate()}
              disabled={busy}
              className={buttonClasses(
                "ghost",
                "sm",
                "text-red-600 hover:bg-red-50 hover:text-red-700 dark:text-red-400 dark:hover:bg-red-500/10",
              )}
            >
              {remove.isPending ? (
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              ) : (
                <Trash2 aria-hidden="true" className="size-4" />
              )}
              Remove <span className="sr-only">{label}</span>
            </button>
          )}
        </div>
      </div>
      {hint && (
        <p id={hintId} className="mt-1.5 text-xs text-stone-500 dark:text-stone-400">
          {hint}
        </p>
      )}
      {fieldError && (
        <p id={errorId} role="alert" className="mt-1.5 text-sm text-red-600 dark:text-red-400">
          {fieldError}
        </p>
      )}
    </div>
  );
}
