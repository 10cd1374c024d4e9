import { type ChangeEvent, useEffect, useState } from "react";
import { useOpeningState } from "@/hooks/use-opening-state";

/**
 * What every money dialog asks besides its own fields: a reason, shown as missing once the
 * operator tries to confirm, and one request id per opening (a double submit acts once). Each
 * opening starts afresh, with the last failure cleared by `clearFailure`.
 */
export function useMoneyForm(open: boolean, clearFailure: () => void) {
  const [reason, setReason] = useOpeningState(open, "");
  const [touched, setTouched] = useOpeningState(open, false);
  const [requestId, setRequestId] = useState("");
  useEffect(() => {
    if (!open) return;
    setRequestId(crypto.randomUUID());
    clearFailure();
  }, [open, clearFailure]);
  const reasonMissing = reason.trim() === "";
  return {
    reason: reason.trim(),
    reasonMissing,
    requestId,
    /** Whether the operator tried to confirm: the fields show their errors from then on. */
    touched,
    touch: () => setTouched(true),
    /** The Reason TextField's props. */
    reasonField: {
      label: "Reason",
      value: reason,
      maxLength: 500,
      onChange: (event: ChangeEvent<HTMLInputElement>) => setReason(event.target.value),
      error: touched && reasonMissing ? "A reason is required" : undefined,
    },
  };
}
