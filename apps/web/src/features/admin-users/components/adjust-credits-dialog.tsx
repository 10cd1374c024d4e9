import { TextField } from "@/components/ui/field";
import { useOpeningState } from "@/hooks/use-opening-state";
import { formatCount } from "@/lib/format";
import { adjustCredits } from "../api/money";
import { useMoneyAction } from "../hooks/use-money-action";
import { useMoneyForm } from "../hooks/use-money-form";
import { MoneyDialog } from "./money-dialog";

/** Grants (a positive number) or takes back (a negative one) credits, with the reason. */
export function AdjustCreditsDialog({
  user,
  open,
  onClose,
}: {
  user: { _id: string; name: string; credits: number };
  open: boolean;
  onClose: () => void;
}) {
  const [delta, setDelta] = useOpeningState(open, "");
  const adjust = useMoneyAction((input: { delta: number; reason: string; requestId: string }) =>
    adjustCredits(user._id, input),
  );
  const form = useMoneyForm(open, adjust.reset);

  const parsed = Number(delta);
  const deltaError = !form.touched
    ? undefined
    : delta.trim() === "" || !Number.isInteger(parsed) || parsed === 0
      ? "Enter a whole number of credits, negative to take back"
      : user.credits + parsed < 0
        ? `The balance cannot go below zero (it is ${formatCount(user.credits)})`
        : undefined;
  const valid = delta.trim() !== "" && Number.isInteger(parsed) && parsed !== 0;

  return (
    <MoneyDialog
      open={open}
      testId="adjust-credits-dialog"
      title="Change credits"
      description={
        <>
          {user.name} has {formatCount(user.credits)} credits. The change and its reason show in
          their credit history.
        </>
      }
      confirmLabel={
        valid ? (parsed > 0 ? `Grant ${parsed} credits` : `Take back ${-parsed} credits`) : "Apply"
      }
      destructive={valid && parsed < 0}
      pending={adjust.isPending}
      error={adjust.error}
      fallbackError="Failed to change credits"
      onClose={onClose}
      onConfirm={() => {
        form.touch();
        if (!valid || user.credits + parsed < 0 || form.reasonMissing) return;
        adjust.mutate(
          { delta: parsed, reason: form.reason, requestId: form.requestId },
          { onSuccess: onClose },
        );
      }}
    >
      <TextField
        label="Credits (negative to take back)"
        inputMode="numeric"
        value={delta}
        onChange={(event) => setDelta(event.target.value)}
        error={deltaError}
      />
      <TextField {...form.reasonField} />
    </MoneyDialog>
  );
}
