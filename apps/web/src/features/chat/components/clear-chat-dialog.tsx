import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { clsx } from "clsx";
import { LoaderCircle } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { CHAT_TEXT } from "../messages";

interface ClearChatDialogProps {
  open: boolean;
  pending: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
}

/** The spec's confirmation before the history is cleared (focus trapped, Escape cancels). */
export function ClearChatDialog({ open, pending, onOpenChange, onConfirm }: ClearChatDialogProps) {
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!pending) onOpenChange(next);
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-950/50 backdrop-blur-sm" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-stone-200 bg-white p-6 shadow-2xl dark:border-white/10 dark:bg-stone-900">
          <AlertDialog.Title className="font-display text-lg font-bold text-stone-900 dark:text-white">
            Clear chat history?
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-stone-600 dark:text-stone-300">
            {CHAT_TEXT.clearConfirm}
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel disabled={pending} className={buttonClasses("secondary", "md")}>
              Cancel
            </AlertDialog.Cancel>
            <button
              type="button"
              disabled={pending}
              onClick={onConfirm}
              className={clsx(
                buttonClasses("primary", "md"),
                "from-red-600 to-red-500 shadow-red-600/25",
              )}
            >
              {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
              Clear history
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
