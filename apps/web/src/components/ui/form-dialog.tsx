import { clsx } from "clsx";
import { LoaderCircle } from "lucide-react";
import type { FormEventHandler, ReactNode } from "react";
import { buttonClasses, destructiveButtonClasses } from "./button";
import { Dialog } from "./dialog";

interface FormDialogProps {
  open: boolean;
  title: string;
  description: ReactNode;
  /** The form is being sent: both buttons wait and the dialog cannot be closed. */
  pending: boolean;
  submitLabel: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** Cancel, Escape, the ✕ and a click outside, except while pending. */
  onClose: () => void;
  children: ReactNode;
  /** The form cannot be sent yet. */
  submitDisabled?: boolean;
  /** A red submit button, for what cannot be undone lightly. */
  destructive?: boolean;
  /** A little more room between the fields and the buttons (long forms). */
  padded?: boolean;
  /** Added to the dialog's classes (e.g. a wider card). */
  className?: string;
  testId?: string;
}

/** A dialog holding a form: its fields, then Cancel and the submit button (spinning while sent). */
export function FormDialog({
  open,
  title,
  description,
  pending,
  submitLabel,
  onSubmit,
  onClose,
  children,
  submitDisabled = false,
  destructive = false,
  padded = false,
  className,
  testId,
}: FormDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onClose();
      }}
      title={title}
      description={description}
      className={className}
      testId={testId}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {children}
        <div
          className={clsx(
            "flex flex-col-reverse gap-2",
            padded && "pt-2",
            "sm:flex-row sm:justify-end",
          )}
        >
          <button
            type="button"
            onClick={onClose}
            disabled={pending}
            className={buttonClasses("secondary", "md")}
          >
            Cancel
          </button>
          <button
            type="submit"
            disabled={submitDisabled || pending}
            className={buttonClasses(
              "primary",
              "md",
              destructive ? destructiveButtonClasses : undefined,
            )}
          >
            {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
            {submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
