import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { UserTransaction, WithdrawResponse } from "@twinline/contracts";
import { CircleCheck, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { buttonClasses, destructiveButtonClasses } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { ApiError } from "@/lib/api-client";
import { useAuth } from "@/lib/auth/auth-provider";
import { formatCount, formatDateTime, formatMoney } from "@/lib/format";
import { billingKeys, withdrawalQuoteQuery, withdrawFromPurchase } from "../api/billing";

const errorText = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;

/**
 * "Withdraw from a purchase" (issue 26, item 5), in two steps: the first shows what withdrawing
 * does (the refund, the credits taken back, a plan ending now), the second confirms it. The
 * fan's session suffices: no password is asked again (docs/decisions/0065).
 */
export function WithdrawDialog({
  payment,
  onClose,
}: {
  payment: UserTransaction;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const { refreshUser } = useAuth();
  const [step, setStep] = useState<"review" | "confirm">("review");
  const quote = useQuery(withdrawalQuoteQuery(payment._id));
  const [done, setDone] = useState<WithdrawResponse | null>(null);
  const withdraw = useMutation({
    mutationFn: () => withdrawFromPurchase(payment._id),
    onSuccess: (answer) => {
      setDone(answer);
      void queryClient.invalidateQueries({ queryKey: billingKeys.all });
      void refreshUser({ force: true }).catch(() => {});
    },
  });
  const data = quote.data;

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !withdraw.isPending) onClose();
      }}
      title="Withdraw from a purchase"
      description={payment.metadata.packageName ?? payment.planName ?? "Purchase"}
      testId="withdraw-dialog"
    >
      {done ? (
        <div role="status" className="space-y-3 text-sm" data-testid="withdraw-done">
          <p className="flex items-center gap-2 font-semibold text-emerald-800 dark:text-emerald-200">
            <CircleCheck aria-hidden="true" className="size-5" />
            {done.message}
          </p>
          <p className="text-stone-700 dark:text-stone-300">
            {formatMoney(done.data.withdrawal.refundAmount, done.data.withdrawal.currency)} is
            refunded to your card
            {done.data.withdrawal.creditsTakenBack > 0
              ? `, ${formatCount(done.data.withdrawal.creditsTakenBack)} credits were taken back`
              : ""}
            . Withdrawn on {formatDateTime(done.data.withdrawal.withdrawnAt)}; a confirmation is on
            its way to your e-mail.
          </p>
          <div className="flex justify-end">
            <button type="button" onClick={onClose} className={buttonClasses("primary", "md")}>
              Close
            </button>
          </div>
        </div>
      ) : quote.isPending ? (
        <LoadingState label="Working out your refund" />
      ) : quote.isError ? (
        <ErrorState
          layout="compact"
          message={errorText(quote.error, "Failed to load the withdrawal")}
          onRetry={() => void quote.refetch()}
        />
      ) : data ? (
        <div className="space-y-4 text-sm">
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5 rounded-2xl border border-stone-200 bg-stone-50 p-4 dark:border-white/10 dark:bg-white/5">
            <dt className="text-stone-600 dark:text-stone-400">Refund</dt>
            <dd className="text-right font-semibold text-stone-900 dark:text-white">
              {formatMoney(data.refundAmount, data.currency)}
            </dd>
            <dt className="text-stone-600 dark:text-stone-400">Credits taken back</dt>
            <dd className="text-right font-semibold text-stone-900 dark:text-white">
              {formatCount(data.creditsTakenBack)}
            </dd>
            {data.kind === "credits" ? (
              <>
                <dt className="text-stone-600 dark:text-stone-400">Credits used (kept)</dt>
                <dd className="text-right font-semibold text-stone-900 dark:text-white">
                  {formatCount(data.creditsUsed)}
                </dd>
              </>
            ) : null}
            <dt className="text-stone-600 dark:text-stone-400">Possible until</dt>
            <dd className="text-right font-semibold text-stone-900 dark:text-white">
              {formatDateTime(data.deadline)}
            </dd>
          </dl>
          {data.endsPlan ? (
            <p className="text-stone-700 dark:text-stone-300">
              Your plan ends now; you get back the unused part of this period.
            </p>
          ) : null}
          {step === "confirm" ? (
            <p
              role="alert"
              className="rounded-xl border border-red-200 bg-red-50 p-3 font-medium text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200"
            >
              Confirm: withdraw from this purchase? This cannot be undone.
            </p>
          ) : null}
          {withdraw.isError ? (
            <p role="alert" className="text-red-700 dark:text-red-300">
              {errorText(withdraw.error, "The withdrawal failed. Please try again.")}
            </p>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={onClose}
              disabled={withdraw.isPending}
              className={buttonClasses("secondary", "md")}
            >
              Keep purchase
            </button>
            {step === "review" ? (
              <button
                type="button"
                onClick={() => setStep("confirm")}
                className={buttonClasses("primary", "md")}
              >
                Withdraw
              </button>
            ) : (
              <button
                type="button"
                onClick={() => withdraw.mutate()}
                disabled={withdraw.isPending}
                className={`${buttonClasses("primary", "md")} ${destructiveButtonClasses}`}
              >
                {withdraw.isPending && (
                  <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
                )}
                Confirm withdrawal
              </button>
            )}
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
