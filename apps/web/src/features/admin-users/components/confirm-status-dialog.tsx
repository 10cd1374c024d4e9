import { ConfirmDialog } from "@/components/ui/confirm-dialog";

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
  const name = target && (
    <strong className="font-semibold text-stone-900 dark:text-white">{target.name}</strong>
  );
  return (
    <ConfirmDialog
      open={target !== null}
      pending={pending}
      title={`${verb} user?`}
      description={
        target &&
        (deactivate ? (
          <>
            {name} ({target.email}) will be signed out at once and cannot sign in until the account
            is activated again.
          </>
        ) : (
          <>
            {name} ({target.email}) will be able to sign in and use the service again.
          </>
        ))
      }
      confirmLabel={verb}
      destructive={deactivate}
      onConfirm={() => target && onConfirm(target)}
      onCancel={onCancel}
    />
  );
}
