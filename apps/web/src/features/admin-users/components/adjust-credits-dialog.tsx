import { useEffect, useState } from "react";
import { TextField } from "@/components/ui/field";
import { formatCount } from "@/lib/format";
import { adjustCredits } from "../api/money";
import { useMoneyAction } from "../hooks/use-money-action";
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
  const [delta, setDelta] = useState("");
  const [reason, setReason] = useState("");
  const [requestId, setRequestId] = useState("");
  const [touched, setTouched] = useState(false);
  const adjust = useMoneyAction((input: { delta: number; reason: string; requestId: string }) =>
    adjustCredits(user._id, input),
  );
  const { reset } = adjust;
  useEffect(() => {
    if (!open) return;
    setDelta("");
    setReason("");
    setTouched(false);
    setRequestId(crypto.randomUUID());
    reset();
  }, [open, reset]);

  const parsed = Number(delta);
  const deltaError = !touched
    ? undefined
    : delta.trim() === "" || !Number.isInteger(parsed) || parsed === 0
      ? "Enter a whole number of credits, negative to take back"
      : user.credits + parsed < 0
        ? `The balance cannot go below zero (it is ${formatCount(user.credits)})`
        : undefined;
  const reasonError = touched && reason.trim() === "" ? "A reason is required" : undefined;
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
        setTouched(true);
        if (!valid || user.credits + parsed < 0 || reason.trim() === "") return;
        adjust.mutate({ delta: parsed, reason: reason.trim(), requestId }, { onSuccess: onClose });
      }}
    >
      <TextField
        label="Credits (negative to take back)"
        inputMode="numeric"
        value={delta}
        onChange={(event) => setDelta(event.target.value)}
        error={deltaError}
      />
      <TextField
        label="Reason"
        value={reason}
        maxLength={500}
        onChange={(event) => setReason(event.target.value)}
        error={reasonError}
      />
    </MoneyDialog>
  );
}
