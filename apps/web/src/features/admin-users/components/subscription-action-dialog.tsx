import { TextField } from "@/components/ui/field";
import { useOpeningState } from "@/hooks/use-opening-state";
import { cancelSubscription, resumeSubscription } from "../api/money";
import { useMoneyAction } from "../hooks/use-money-action";
import { useMoneyForm } from "../hooks/use-money-form";
import { MoneyDialog } from "./money-dialog";

export type SubscriptionAction = "cancel_period_end" | "cancel_now" | "resume";

const COPY: Record<
  SubscriptionAction,
  { title: string; confirm: string; describe: (name: string, end: string) => string }
> = {
  cancel_period_end: {
    title: "Cancel at period end?",
    confirm: "Cancel at period end",
    describe: (name, end) =>
      `${name} keeps the plan until ${end}; it does not renew. You can resume it until then.`,
  },
  cancel_now: {
    title: "Cancel now?",
    confirm: "Cancel now",
    describe: (name) =>
      `${name}'s subscription ends at once. You may refund the unused part of the period.`,
  },
  resume: {
    title: "Resume subscription?",
    confirm: "Resume",
    describe: (name, end) => `${name}'s subscription renews again on ${end}.`,
  },
};

/** Cancel a user's subscription (at the period end or now) or resume one set to cancel. */
export function SubscriptionActionDialog({
  userId,
  userName,
  periodEnd,
  action,
  onClose,
}: {
  userId: string;
  userName: string;
  periodEnd: string;
  action: SubscriptionAction | null;
  onClose: () => void;
}) {
  const open = action !== null;
  const [refundUnused, setRefundUnused] = useOpeningState(open, false);
  const run = useMoneyAction(
    ({ chosen, reason }: { chosen: SubscriptionAction; reason: string }) =>
      chosen === "resume"
        ? resumeSubscription(userId, { reason })
        : cancelSubscription(userId, {
            when: chosen === "cancel_now" ? "now" : "period_end",
            refundUnused: chosen === "cancel_now" && refundUnused,
            reason,
          }),
  );
  const form = useMoneyForm(open, run.reset);
  const copy = action ? COPY[action] : null;

  return (
    <MoneyDialog
      open={open}
      testId="subscription-action-dialog"
      title={copy?.title ?? ""}
      description={copy?.describe(userName, periodEnd)}
      confirmLabel={copy?.confirm ?? ""}
      destructive={action !== "resume"}
      pending={run.isPending}
      error={run.error}
      fallbackError={
        action === "resume" ? "Failed to resume subscription" : "Failed to cancel subscription"
      }
      onClose={onClose}
      onConfirm={() => {
        form.touch();
        if (!action || form.reasonMissing) return;
        run.mutate({ chosen: action, reason: form.reason }, { onSuccess: onClose });
      }}
    >
      {action === "cancel_now" && (
        <label className="flex items-center gap-2.5 text-sm text-stone-700 dark:text-stone-300">
          <input
            type="checkbox"
            checked={refundUnused}
            onChange={(event) => setRefundUnused(event.target.checked)}
            className="size-4 rounded border-stone-300 accent-brand-600"
          />
          Refund the unused part of the period
        </label>
      )}
      <TextField {...form.reasonField} />
    </MoneyDialog>
  );
}
