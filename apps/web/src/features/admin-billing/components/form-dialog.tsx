import { clsx } from "clsx";
import { LoaderCircle } from "lucide-react";
import type { FormEventHandler, ReactNode } from "react";
import { buttonClasses } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

/**
 * The add and edit dialogs of plans and packages: the form's fields, then Cancel and the submit
 * button. While saving, both buttons wait and the dialog cannot be closed.
 */
export function FormDialog({
  open,
  title,
  description,
  pending,
  submitLabel,
  onSubmit,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  description: string;
  pending: boolean;
  submitLabel: string;
  /** The form's handleSubmit. */
  onSubmit: FormEventHandler<HTMLFormElement>;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={closeUnlessPending(pending, onClose)}
      title={title}
      description={description}
      className="max-w-lg"
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {children}
        <DialogButtons padded pending={pending} submitLabel={submitLabel} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** A dialog's onOpenChange: Escape, the ✕ and a click outside close it, except while it saves. */
export function closeUnlessPending(pending: boolean, onClose: () => void) {
  return (open: boolean) => {
    if (!open && !pending) onClose();
  };
}

/** Cancel and the submit button of a dialog's form: while it saves, both wait and submit spins. */
export function DialogButtons({
  pending,
  submitLabel,
  onCancel,
  disabled = false,
  destructive = false,
  padded = false,
}: {
  pending: boolean;
  submitLabel: string;
  onCancel: () => void;
  /** The form cannot be sent yet. */
  disabled?: boolean;
  /** A red submit button, for what cannot be undone. */
  destructive?: boolean;
  /** A little more room above, under a form's fields. */
  padded?: boolean;
}) {
  return (
    <div
      className={clsx(
        "flex flex-col-reverse gap-2",
        padded && "pt-2",
        "sm:flex-row sm:justify-end",
      )}
    >
      <button
        type="button"
        onClick={onCancel}
        disabled={pending}
        className={buttonClasses("secondary", "md")}
      >
        Cancel
      </button>
      <button
        type="submit"
        disabled={disabled || pending}
        className={buttonClasses(
          "primary",
          "md",
          destructive ? "from-red-600 to-red-500 shadow-red-600/25" : undefined,
        )}
      >
        {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
        {submitLabel}
      </button>
    </div>
  );
}
