import { useEffect, useId, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { inputClasses } from "@/components/ui/field";
import { closeUnlessPending, DialogButtons } from "./form-dialog";

/**
 * Delete by typing the name exactly (admin-side spec, section 5): the Delete button stays
 * disabled, and `mismatch` shows, until the typed text equals `name`.
 */
export function TypeToDeleteDialog({
  open,
  title,
  name,
  description,
  mismatch,
  pending,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  name: string;
  description: string;
  mismatch: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const inputId = useId();
  const [typed, setTyped] = useState("");
  useEffect(() => {
    if (open) setTyped("");
  }, [open]);
  const matches = typed === name;
  return (
    <Dialog
      open={open}
      onOpenChange={closeUnlessPending(pending, onClose)}
      title={title}
      description={description}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (matches && !pending) onConfirm();
        }}
        className="space-y-4"
      >
        <div>
          <label
            htmlFor={inputId}
            className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
          >
            Type <strong className="break-all">{name}</strong> to confirm
          </label>
          <input
            id={inputId}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            aria-invalid={typed !== "" && !matches ? true : undefined}
            className={inputClasses}
          />
          {typed !== "" && !matches && (
            <p className="mt-1.5 text-sm text-red-600 dark:text-red-400">{mismatch}</p>
          )}
        </div>
        <DialogButtons
          destructive
          disabled={!matches}
          pending={pending}
          submitLabel="Delete"
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
