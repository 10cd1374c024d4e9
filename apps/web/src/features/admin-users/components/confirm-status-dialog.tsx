import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { clsx } from "clsx";
import { LoaderCircle } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";

export interface StatusTarget {
  _id: string;
  name: string;
  email: string;
  isActive: boolean;
}

interface ConfirmStatusDialogProps {
  /** The user to activate or deactivate; null keeps the dialog closed. */
  target: StatusTarget | null;
  pending: boolean;
  onConfirm: (target: StatusTarget) => void;
  onCancel: () => void;
}

/** The confirmation before activating or deactivating a user (focus trapped, Escape cancels). */
export function ConfirmStatusDialog({
  target,
  pending,
  onConfirm,
  onCancel,
}: ConfirmStatusDialogProps) {
  const deactivate = target?.isActive ?? false;
  const verb = deactivate ? "Deactivate" : "Activate";
  return (
    <AlertDialog.Root
      open={target !== null}
      onOpenChange={(open) => {
        if (!open && !pending) onCancel();
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-950/50 backdrop-blur-sm" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-stone-200 bg-white p-6 shadow-2xl dark:border-white/10 dark:bg-stone-900">
          <AlertDialog.Title className="font-display text-lg font-bold text-stone-900 dark:text-white">
            {verb} user?
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-stone-600 dark:text-stone-300">
            {target &&
              (deactivate ? (
                <>
                  <strong className="font-semibold text-stone-900 dark:text-white">
                    {target.name}
                  </strong>{" "}
                  ({target.email}) will be signed out at once and cannot sign in until the account
                  is activated again.
                </>
              ) : (
                <>
                  <strong className="font-semibold text-stone-900 dark:text-white">
                    {target.name}
                  </strong>{" "}
                  ({target.email}) will be able to sign in and use the service again.
                </>
              ))}
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel disabled={pending} className={buttonClasses("secondary", "md")}>
              Cancel
            </AlertDialog.Cancel>
            <button
              type="button"
              disabled={pending}
              onClick={() => target && onConfirm(target)}
              className={clsx(
                buttonClasses("primary", "md"),
                deactivate && "from-red-600 to-red-500 shadow-red-600/25",
              )}
            >
              {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
              {verb}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
