import { useEffect, useId, useState } from "react";
import { inputClasses } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";

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
    <FormDialog
      open={open}
      title={title}
      description={description}
      pending={pending}
      submitLabel="Delete"
      submitDisabled={!matches}
      destructive
      onSubmit={(event) => {
        event.preventDefault();
        if (matches && !pending) onConfirm();
      }}
      onClose={onClose}
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
    </FormDialog>
  );
}
