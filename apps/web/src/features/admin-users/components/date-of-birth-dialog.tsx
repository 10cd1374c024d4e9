import { AGE_RULES, dateOfBirthSchema, utcToday } from "@twinline/contracts";
import { useState } from "react";
import { TextField } from "@/components/ui/field";
import { useOpeningState } from "@/hooks/use-opening-state";
import { correctDateOfBirth } from "../api/users";
import { useMoneyAction } from "../hooks/use-money-action";
import { MoneyDialog } from "./money-dialog";

/**
 * The admin corrects a user's date of birth (decision 0054): the fan cannot change it, and the
 * audit log keeps the old and the new date.
 */
export function DateOfBirthDialog({
  user,
  open,
  onClose,
}: {
  user: { _id: string; name: string; dateOfBirth: string | null };
  open: boolean;
  onClose: () => void;
}) {
  const [value, setValue] = useOpeningState(open, user.dateOfBirth ?? "");
  const correct = useMoneyAction((dateOfBirth: string) =>
    correctDateOfBirth(user._id, dateOfBirth),
  );
  const parsed = dateOfBirthSchema.safeParse(value);
  const [issue] = parsed.success ? [] : parsed.error.issues;

  return (
    <MoneyDialog
      open={open}
      testId="date-of-birth-dialog"
      title="Correct date of birth"
      description={
        <>
          {user.name}'s date of birth is {user.dateOfBirth ?? "not given"}. The correction is kept
          in the audit log, old and new.
        </>
      }
      confirmLabel="Save date of birth"
      pending={correct.isPending}
      error={correct.error}
      fallbackError="Failed to correct the date of birth"
      onClose={onClose}
      onConfirm={() => {
        if (parsed.success) correct.mutate(parsed.data, { onSuccess: onClose });
      }}
    >
      <TextField
        label="Date of birth"
        type="date"
        min={`${AGE_RULES.earliestYear}-01-01`}
        max={utcToday()}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={value && issue ? issue.message : undefined}
      />
    </MoneyDialog>
  );
}

/** The date of birth on the user details page, with the admin's Correct button. */
export function DateOfBirthValue({
  user,
}: {
  user: { _id: string; name: string; dateOfBirth: string | null };
}) {
  const [open, setOpen] = useState(false);
  return (
    <span className="inline-flex items-center gap-2" data-testid="date-of-birth">
      {user.dateOfBirth ?? "Not given"}
      <button
        type="button"
        className="rounded text-sm font-medium text-brand-600 hover:underline dark:text-brand-300"
        onClick={() => setOpen(true)}
      >
        Correct
      </button>
      <DateOfBirthDialog user={user} open={open} onClose={() => setOpen(false)} />
    </span>
  );
}
