import type { ReactNode } from "react";
import { FormMessage } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
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
  confirmLabel,
  pending,
  error,
  fallbackError,
  onConfirm,
  children,
  ...dialog
}: MoneyDialogProps) {
  return (
    <FormDialog
      {...dialog}
      pending={pending}
      submitLabel={confirmLabel}
      onSubmit={(event) => {
        event.preventDefault();
        if (!pending) onConfirm();
      }}
    >
      {children}
      {error ? <FormMessage>{errorMessage(error, fallbackError)}</FormMessage> : null}
    </FormDialog>
  );
}
