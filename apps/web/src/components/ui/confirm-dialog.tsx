import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { clsx } from "clsx";
import { LoaderCircle } from "lucide-react";
import type { ReactNode } from "react";
import { buttonClasses, destructiveButtonClasses } from "./button";
import { useFocusReturn } from "./use-focus-return";

interface ConfirmDialogProps {
  open: boolean;
  /** The confirmed action is running: both buttons wait and the dialog stays open. */
  pending: boolean;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: ReactNode;
  /** The button that backs out (default "Cancel"). */
  cancelLabel?: ReactNode;
  /** Red confirm button, for what cannot be undone lightly. */
  destructive?: boolean;
  onConfirm: () => void;
  /** Cancel, Escape. */
  onCancel: () => void;
}

/** A confirmation before an action (Radix alert dialog: focus trapped, Escape cancels). */
export function ConfirmDialog({
  open,
  pending,
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  destructive = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const focusReturn = useFocusReturn();
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onCancel();
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-950/50 backdrop-blur-sm" />
        <AlertDialog.Content
          {...focusReturn}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-stone-200 bg-white p-6 shadow-2xl dark:border-white/10 dark:bg-stone-900"
        >
          <AlertDialog.Title className="font-display text-lg font-bold text-stone-900 dark:text-white">
            {title}
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm break-words text-stone-600 dark:text-stone-300">
            {description}
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel disabled={pending} className={buttonClasses("secondary", "md")}>
              {cancelLabel}
            </AlertDialog.Cancel>
            <button
              type="button"
              disabled={pending}
              onClick={onConfirm}
              className={clsx(
                buttonClasses("primary", "md"),
                destructive && destructiveButtonClasses,
              )}
            >
              {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
              {confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
