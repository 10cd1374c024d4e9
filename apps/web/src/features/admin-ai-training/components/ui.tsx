import { clsx } from "clsx";
import { Check, LoaderCircle, X } from "lucide-react";
import type { ReactNode } from "react";
import { buttonClasses } from "@/components/ui/button";
import type { ProgressUpload } from "../hooks/use-progress-upload";

/** A button's content: a spinner while busy, a tick for 3 s after saving. */
export function BusyLabel({
  busy,
  done = false,
  busyText,
  doneText = "Saved",
  icon,
  children,
}: {
  busy: boolean;
  done?: boolean;
  busyText: string;
  doneText?: string;
  icon?: ReactNode;
  children: ReactNode;
}) {
  if (busy) {
    return (
      <>
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        {busyText}
      </>
    );
  }
  if (done) {
    return (
      <>
        <Check aria-hidden="true" className="size-4" />
        {doneText}
      </>
    );
  }
  return (
    <>
      {icon}
      {children}
    </>
  );
}

/** An upload on its way: name, bar, percent and Cancel. */
export function UploadProgressBar({
  fileName,
  percent,
  onCancel,
}: {
  fileName: string;
  percent: number;
  onCancel: () => void;
}) {
  return (
    <div className="rounded-xl border border-brand-200 bg-brand-50/60 p-3 dark:border-brand-400/25 dark:bg-brand-500/5">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="min-w-0 truncate font-medium text-stone-800 dark:text-stone-200">
          Uploading {fileName}
        </span>
        <span className="flex shrink-0 items-center gap-1">
          <span className="tabular-nums text-stone-600 dark:text-stone-400">{percent}%</span>
          <button
            type="button"
            onClick={onCancel}
            aria-label={`Cancel the upload of ${fileName}`}
            className="inline-flex size-8 items-center justify-center rounded-full text-stone-500 hover:bg-white hover:text-stone-900 dark:hover:bg-white/10 dark:hover:text-white"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={`Uploading ${fileName}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-2 h-2 overflow-hidden rounded-full bg-white dark:bg-white/10"
      >
        <div
          className="h-full rounded-full bg-gradient-to-r from-brand-600 to-orange-500 transition-[width] duration-200"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

/** An upload's progress while it runs and the last problem with a file. */
export function UploadStatus({
  upload,
  problem,
}: {
  upload: ProgressUpload;
  problem: string | null;
}) {
  return (
    <>
      {upload.fileName && (
        <UploadProgressBar
          fileName={upload.fileName}
          percent={upload.percent}
          onCancel={upload.cancel}
        />
      )}
      {problem && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {problem}
        </p>
      )}
    </>
  );
}

/** A button that opens a hidden file input. */
export function FileButton({
  label,
  accept,
  disabled,
  onFile,
  icon,
  testId,
  variant = "secondary",
}: {
  label: string;
  accept: string;
  disabled?: boolean;
  onFile: (file: File) => void;
  icon?: ReactNode;
  testId: string;
  variant?: "primary" | "secondary";
}) {
  return (
    <label
      className={clsx(
        buttonClasses(variant, "sm"),
        "cursor-pointer focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-500",
        disabled && "pointer-events-none opacity-50",
      )}
    >
      {icon}
      {label}
      <input
        type="file"
        accept={accept}
        disabled={disabled}
        data-testid={testId}
        className="sr-only"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) onFile(file);
        }}
      />
    </label>
  );
}
