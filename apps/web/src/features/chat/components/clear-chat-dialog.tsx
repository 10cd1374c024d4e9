import { ConfirmDialog } from "@/components/ui/confirm-dialog";
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
    <ConfirmDialog
      open={open}
      pending={pending}
      title="Clear chat history?"
      description={CHAT_TEXT.clearConfirm}
      confirmLabel="Clear history"
      destructive
      onConfirm={onConfirm}
      onCancel={() => onOpenChange(false)}
    />
  );
}
