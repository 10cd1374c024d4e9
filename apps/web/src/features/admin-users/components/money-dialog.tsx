import { LoaderCircle } from "lucide-react";
import type { FormEvent, ReactNode } from "react";
import { buttonClasses } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormMessage } from "@/components/ui/field";
import { errorMessage } from "@/lib/api-client";

interface MoneyDialogProps {
  open: boolean;
  title: string;
  /** What will happen, said before the operator confirms. */
  description: ReactNode;
  confirmLabel: string;
  pending: boolean;
  /** The last failure (shown in place, with the server's reason). */
  error: unknown;
  fallbackError: string;
  destructive?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
  testId: string;
}

/**
 * The confirm dialog of a money action: what it does, its fields, Cancel and the action. A
 * failure stays in the dialog with the server's reason; Cancel and Escape wait while it runs.
 */
export function MoneyDialog({
  open,
  title,
  description,
  confirmLabel,
  pending,
  error,
  fallbackError,
  destructive = false,
  onConfirm,
  onClose,
  children,
  testId,
}: MoneyDialogProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) onConfirm();
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onClose();
      }}
      title={title}
      description={description}
      testId={testId}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        {children}
        {error ? <FormMessage>{errorMessage(error, fallbackError)}</FormMessage> : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            disabled={pending}
            onClick={onClose}
            className={buttonClasses("secondary", "md")}
          >
            Cancel
          </button>
          <button
            type="submit"
            disabled={pending}
            className={buttonClasses(
              "primary",
              "md",
              destructive ? "from-red-600 to-red-500 shadow-red-600/25" : undefined,
            )}
          >
            {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
            {confirmLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
