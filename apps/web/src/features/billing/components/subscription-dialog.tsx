import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type CurrentSubscription,
  isSubscribed,
  type PlanChangeResult,
  planConsentText,
  planTrialTerms,
  type SubscriptionPlan,
  subscriptionStatusText,
  trialLabel,
} from "@twinline/contracts";
import { clsx } from "clsx";
import { ArrowDown, ArrowUp, Check, CircleCheck, LoaderCircle, RefreshCw } from "lucide-react";
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { useAuth } from "@/lib/auth/auth-provider";
import { formatDate, formatMoney } from "@/lib/format";
import {
  activePlansQuery,
  billingKeys,
  cancelSubscription,
  changePlan,
  createSubscriptionCheckout,
  mySubscriptionQuery,
  type PromotionQuote,
  redirectTo,
  resumeSubscription,
} from "../api/billing";
import { intervalLabel, planChangeKind, priceAfterTrial, trialDaysFor } from "../api/format";
import { CheckoutTerms } from "./checkout-terms";
import { ConsentCheckbox } from "./consent-checkbox";
import { PromotionCodeField } from "./promotion-code-field";

/** Toast titles and messages of user-side spec section 8. */
export const SUBSCRIPTION_TEXT = {
  loadPlansFailed: "Failed to load subscription plans",
  checkoutErrorTitle: "Checkout Error",
  changeFailed: "Failed to process subscription change",
  cancelFailed: "Failed to cancel subscription",
  resumeFailed: "Failed to resume subscription",
  resumed: "Your subscription is resumed: it renews at the end of the period",
} as const;

/** What canceling does, said before it is done (issue 26, item 5). */
export const cancelStatement = (endDate: string | null) =>
  `Your plan stays until ${formatDate(endDate)}; you will not be charged again.`;

/** The API's status as every screen shows it; a failing renewal adds "Past due". */
function statusLabel(subscription: CurrentSubscription): string {
  if (subscription.status === "active" && subscription.providerStatus === "past_due") {
    return "Past due";
  }
  return subscriptionStatusText(subscription.status, subscription.endDate, formatDate);
}

function CurrentBlock({ subscription }: { subscription: CurrentSubscription }) {
  const willRenew = subscription.autoRenew && !subscription.cancelAtPeriodEnd;
  return (
    <div
      data-testid="current-subscription"
      className="rounded-2xl border border-stone-200 bg-stone-50 p-4 text-sm dark:border-white/10 dark:bg-white/5"
    >
      <p className="text-xs font-semibold tracking-wide text-stone-500 uppercase dark:text-stone-400">
        Current subscription
      </p>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1.5">
        <dt className="text-stone-500 dark:text-stone-400">Plan</dt>
        <dd className="text-right font-medium text-stone-900 dark:text-white">
          {subscription.plan?.name ?? "—"}
        </dd>
        <dt className="text-stone-500 dark:text-stone-400">Status</dt>
        <dd className="text-right">
          <Badge
            tone={
              (subscription.status === "active" || subscription.status === "trialing") && willRenew
                ? "green"
                : "yellow"
            }
          >
            {statusLabel(subscription)}
          </Badge>
        </dd>
        <dt className="text-stone-500 dark:text-stone-400">Period ends</dt>
        <dd className="text-right font-medium text-stone-900 dark:text-white">
          {formatDate(subscription.endDate)}
        </dd>
        <dt className="text-stone-500 dark:text-stone-400">Renewal</dt>
        <dd className="text-right font-medium text-stone-900 dark:text-white">
          {willRenew ? "Renews automatically" : "Will not renew"}
        </dd>
      </dl>
    </div>
  );
}

function PlanCard({
  plan,
  selected,
  current,
  trialDays,
  onSelect,
}: {
  plan: SubscriptionPlan;
  selected: boolean;
  current: boolean;
  /** The free trial this fan would get on this plan (0: none, the card is as before). */
  trialDays: number;
  onSelect: () => void;
}) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={onSelect}
      className={clsx(
        "w-full rounded-2xl border p-4 text-left transition focus-visible:outline-2 focus-visible:outline-brand-500",
        selected
          ? "border-brand-500 bg-brand-50 ring-2 ring-brand-500/30 dark:border-brand-400 dark:bg-brand-500/10"
          : "border-stone-200 hover:border-brand-300 dark:border-white/10 dark:hover:border-brand-400/50",
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold break-words text-stone-900 dark:text-white">{plan.name}</p>
          {plan.description ? (
            <p className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">{plan.description}</p>
          ) : null}
        </div>
        {trialDays > 0 ? (
          <div data-testid="plan-trial" className="shrink-0 text-right">
            <p className="font-display text-lg font-bold text-emerald-700 dark:text-emerald-300">
              {trialLabel(trialDays)}
            </p>
            <p className="text-xs text-stone-600 dark:text-stone-400">{priceAfterTrial(plan)}</p>
          </div>
        ) : (
          <div className="shrink-0 text-right">
            <p className="font-display text-lg font-bold text-stone-900 dark:text-white">
              {formatMoney(plan.price, plan.currency)}
            </p>
            <p className="text-xs text-stone-500 dark:text-stone-400">
              per {intervalLabel(plan.interval, plan.intervalCount)}
            </p>
          </div>
        )}
      </div>
      {current && (
        <p className="mt-2">
          <Badge tone="brand">Current plan</Badge>
        </p>
      )}
      {plan.features.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm text-stone-700 dark:text-stone-300">
          {plan.features.map((feature) => (
            <li key={feature} className="flex items-start gap-2">
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
              {feature}
            </li>
          ))}
        </ul>
      )}
    </button>
  );
}

function ChangeBanner({
  kind,
  plan,
}: {
  kind: "upgrade" | "downgrade" | "change";
  plan: SubscriptionPlan;
}) {
  const text =
    kind === "upgrade"
      ? `Upgrade to ${plan.name}: the new plan starts now and the prorated difference is charged at once, paid from your account credit first.`
      : kind === "downgrade"
        ? `Downgrade to ${plan.name}: the new plan starts now and the unused part of your current plan is credited to your next invoice.`
        : `Change to ${plan.name}: the new plan starts now.`;
  const Icon = kind === "upgrade" ? ArrowUp : kind === "downgrade" ? ArrowDown : RefreshCw;
  return (
    <p
      data-testid="change-banner"
      className="flex items-start gap-2 rounded-xl border border-sky-200 bg-sky-50 px-3.5 py-2.5 text-sm text-sky-800 dark:border-sky-400/30 dark:bg-sky-500/10 dark:text-sky-200"
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {text}
    </p>
  );
}

/**
 * What the change cost, as the banner announced it: charged at once (from the account credit
 * first), credited to the next invoice, or nothing.
 */
function changeOutcome(result: PlanChangeResult): string {
  const { proratedAmount } = result.subscription;
  const fromCredit = result.subscription.paidFromAccountCredit ?? 0;
  const currency = result.subscription.currency ?? "usd";
  const credit = `${formatMoney(fromCredit, currency)} paid from your account credit`;
  if (proratedAmount !== null && proratedAmount > 0) {
    const charged = `${formatMoney(proratedAmount, currency)} was charged now for the rest of this period`;
    return fromCredit > 0 ? `${charged}; ${credit}.` : `${charged}.`;
  }
  if (fromCredit > 0) return `${credit} for the rest of this period.`;
  if (proratedAmount !== null && proratedAmount < 0) {
    return `${formatMoney(-proratedAmount, currency)} is credited to your next invoice.`;
  }
  return "No proration applies to this change.";
}

function SuccessPanel({ result }: { result: PlanChangeResult }) {
  return (
    <div
      role="status"
      data-testid="change-success"
      className="rounded-2xl border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-800 dark:border-emerald-400/30 dark:bg-emerald-500/10 dark:text-emerald-200"
    >
      <p className="flex items-center gap-2 font-semibold">
        <CircleCheck aria-hidden="true" className="size-5" />
        {result.message}
      </p>
      <p className="mt-1.5">{changeOutcome(result)}</p>
    </div>
  );
}

export interface SubscriptionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The Subscription dialog (user-side spec, sections 2 and 4): the plans as cards, the current
 * subscription, a banner for an upgrade, downgrade or change, and a success panel after a change.
 * An active subscriber changes plan at once (with proration); anyone else goes to the hosted
 * checkout. Cancel stops renewal at the period end.
 */
export function SubscriptionDialog({ open, onOpenChange }: SubscriptionDialogProps) {
  const queryClient = useQueryClient();
  const { refreshUser } = useAuth();
  const plans = useQuery({ ...activePlansQuery(), enabled: open });
  const subscription = useQuery({ ...mySubscriptionQuery(), enabled: open });
  const [selected, setSelected] = useState<string | null>(null);
  const [result, setResult] = useState<PlanChangeResult | null>(null);
  // The renewal terms' box, for the plan selected now: a new selection asks again.
  const [agreedTo, setAgreedTo] = useState<string | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  // A promotion code for a new subscription's first payment (issue 27 item 4).
  const [promotion, setPromotion] = useState<PromotionQuote | null>(null);

  useEffect(() => {
    if (!open) {
      setPromotion(null);
      setSelected(null);
      setResult(null);
      setAgreedTo(null);
      setConfirmingCancel(false);
    }
  }, [open]);

  useEffect(() => {
    if (plans.isError) toast.error(SUBSCRIPTION_TEXT.loadPlansFailed, { id: "plans-failed" });
  }, [plans.isError]);

  const current = subscription.data ?? null;
  const currentPrice = current?.price ?? current?.plan?.price ?? 0;
  const isActive = current?.status === "active";
  // A subscription set to cancel ("canceled", shown as Canceling) is in force until its end:
  // choosing a plan changes it directly (the same plan resumes renewal), never a new checkout.
  const inForce = current !== null && isSubscribed(current.status);
  const renewing = isActive && !current?.cancelAtPeriodEnd;
  const currentPlanId = inForce ? (current?.plan?._id ?? null) : null;
  const chosen = plans.data?.find((p) => p._id === selected) ?? null;
  // A new subscription's free trial (decision 0083): the fan's first, on a plan that has one.
  const chosenTrialDays = chosen && !inForce ? trialDaysFor(chosen, current) : 0;

  const afterChange = () => {
    void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    void refreshUser({ force: true }).catch(() => {});
  };

  const confirm = useMutation({
    mutationFn: async (plan: SubscriptionPlan) => {
      if (inForce) return { kind: "changed" as const, result: await changePlan(plan._id) };
      return {
        kind: "checkout" as const,
        url: await createSubscriptionCheckout(plan._id, promotion?.code ?? null),
      };
    },
    onSuccess: (answer) => {
      if (answer.kind === "checkout") {
        redirectTo.go(answer.url);
        return;
      }
      setResult(answer.result);
      afterChange();
    },
    onError: () => {
      toast.error(
        <span>
          <strong className="block">{SUBSCRIPTION_TEXT.checkoutErrorTitle}</strong>
          {SUBSCRIPTION_TEXT.changeFailed}
        </span>,
      );
    },
  });

  const cancel = useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (answer) => {
      setConfirmingCancel(false);
      toast.success(cancelStatement(answer.subscription.endDate));
      afterChange();
    },
    onError: () => {
      setConfirmingCancel(false);
      toast.error(SUBSCRIPTION_TEXT.cancelFailed);
    },
  });

  const resume = useMutation({
    mutationFn: resumeSubscription,
    onSuccess: () => {
      toast.success(SUBSCRIPTION_TEXT.resumed);
      afterChange();
    },
    onError: () => toast.error(SUBSCRIPTION_TEXT.resumeFailed),
  });

  const hasSubscription = current !== null && current.status !== "inactive";
  const title = hasSubscription ? "Manage Subscription" : "Subscribe to a Plan";
  const kind =
    inForce && chosen && current?.plan && chosen._id !== currentPlanId
      ? planChangeKind(currentPrice, chosen.price)
      : null;
  const busy = confirm.isPending || cancel.isPending || resume.isPending;
  // A new subscription's checkout needs its renewal terms ticked (issue 26, item 3).
  const needsConsent = !inForce && chosen !== null;
  const consented = !needsConsent || agreedTo === chosen?._id;
  // Disabled with no selection or on the current active plan (user-side spec, section 5).
  const confirmDisabled =
    !chosen || (renewing && chosen._id === currentPlanId) || busy || result !== null || !consented;
  const showCancel = renewing && result === null;
  const showResume = inForce && current?.cancelAtPeriodEnd === true && result === null;

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description="Subscribers send unlimited messages."
      className="max-w-xl"
      testId="subscription-dialog"
    >
      {plans.isPending || subscription.isPending ? (
        <LoadingState label="Loading subscription plans" />
      ) : plans.isError || subscription.isError ? (
        <ErrorState
          layout="compact"
          message={SUBSCRIPTION_TEXT.loadPlansFailed}
          onRetry={() => {
            void plans.refetch();
            void subscription.refetch();
          }}
        />
      ) : (
        <div className="space-y-4">
          {hasSubscription && current ? <CurrentBlock subscription={current} /> : null}
          {result ? <SuccessPanel result={result} /> : null}
          {plans.data.length === 0 ? (
            <p className="py-6 text-center text-sm text-stone-600 dark:text-stone-400">
              No subscription plans are available right now.
            </p>
          ) : (
            <fieldset className="space-y-3">
              <legend className="sr-only">Subscription plans</legend>
              {plans.data.map((plan) => (
                <PlanCard
                  key={plan._id}
                  plan={plan}
                  selected={plan._id === selected}
                  current={plan._id === currentPlanId}
                  trialDays={inForce ? 0 : trialDaysFor(plan, current)}
                  onSelect={() => {
                    if (plan._id !== selected) {
                      setAgreedTo(null);
                      setPromotion(null);
                    }
                    setSelected(plan._id);
                  }}
                />
              ))}
            </fieldset>
          )}
          {kind && chosen && result === null ? <ChangeBanner kind={kind} plan={chosen} /> : null}
          {/* A trial checkout takes no code (the server refuses one: decision 0083). */}
          {needsConsent && chosen && chosenTrialDays === 0 ? (
            <PromotionCodeField
              key={chosen._id}
              target={{ planId: chosen._id }}
              disabled={busy}
              onChange={setPromotion}
            />
          ) : null}
          {needsConsent && chosen ? (
            <ConsentCheckbox
              text={planConsentText(
                chosen,
                chosenTrialDays > 0 ? planTrialTerms(chosenTrialDays, Date.now()) : null,
              )}
              checked={agreedTo === chosen._id}
              onCheckedChange={(checked) => setAgreedTo(checked ? chosen._id : null)}
              disabled={busy}
            />
          ) : null}
          <CheckoutTerms />
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            {showCancel && (
              <button
                type="button"
                onClick={() => setConfirmingCancel(true)}
                disabled={busy}
                className={buttonClasses("secondary", "md", "text-red-700 dark:text-red-300")}
              >
                Cancel Subscription
              </button>
            )}
            {showResume && (
              <button
                type="button"
                onClick={() => resume.mutate()}
                disabled={busy}
                className={buttonClasses("secondary", "md")}
              >
                {resume.isPending && (
                  <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
                )}
                Resume subscription
              </button>
            )}
            <button
              type="button"
              disabled={confirmDisabled}
              onClick={() => chosen && confirm.mutate(chosen)}
              className={buttonClasses("primary", "md")}
            >
              {confirm.isPending && (
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              )}
              {inForce ? "Change Plan" : "Subscribe"}
            </button>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirmingCancel}
        pending={cancel.isPending}
        title="Cancel your subscription?"
        description={cancelStatement(current?.endDate ?? null)}
        confirmLabel="Cancel subscription"
        cancelLabel="Keep subscription"
        destructive
        onConfirm={() => cancel.mutate()}
        onCancel={() => setConfirmingCancel(false)}
      />
    </Dialog>
  );
}
