import { useMutation, useQuery } from "@tanstack/react-query";
import {
  BILLING_DEFAULTS,
  type CreditPackage,
  creditsConsentText,
  isSubscribed,
  SUBSCRIPTION_STATUS_LABELS,
  subscriptionStatusText,
} from "@twinline/contracts";
import { Clock, Coins, Crown, LoaderCircle, RotateCw, ShoppingCart } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import toast from "react-hot-toast";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState } from "@/components/ui/load-states";
import { LowBalanceNotice } from "@/components/ui/low-balance-notice";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { formatCount, formatDate, formatMoney } from "@/lib/format";
import { useSettings } from "@/lib/settings";
import {
  CREDITS_HISTORY_PAGE_SIZE,
  checkoutErrorMessage,
  createPackageCheckout,
  creditBalanceQuery,
  creditPackagesQuery,
  mySubscriptionQuery,
  type PromotionQuote,
  redirectTo,
} from "../api/billing";
import { CheckoutReturn } from "./checkout-return";
import { CheckoutTerms } from "./checkout-terms";
import { ConsentCheckbox } from "./consent-checkbox";
import { PromotionCodeField } from "./promotion-code-field";
import { SubscriptionDialog } from "./subscription-dialog";
import { TransactionsList } from "./transactions-list";

export const CREDITS_TEXT = {
  loadPackagesFailed: "Failed to load credit packages",
  loadBalanceFailed: "Failed to load credit balance",
  loadHistoryFailed: "Failed to load transaction history",
  neverExpire: "Credits never expire",
} as const;

function SummaryCard({
  icon,
  title,
  aside,
  children,
}: {
  icon: ReactNode;
  title: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="rounded-3xl border border-stone-200 bg-white p-5 dark:border-white/10 dark:bg-stone-900"
    >
      <div className="flex items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <span className="flex size-10 items-center justify-center rounded-2xl bg-amber-100 text-amber-700 dark:bg-amber-500/15 dark:text-amber-300">
            {icon}
          </span>
          <h2 id={id} className="text-sm font-medium text-stone-600 dark:text-stone-400">
            {title}
          </h2>
        </div>
        {aside}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The credit balance (GET /api/users/credit-balance) with a Refresh button. */
function BalanceCard() {
  const balance = useQuery(creditBalanceQuery());
  const { settings } = useSettings();
  return (
    <SummaryCard
      icon={<Coins aria-hidden="true" className="size-5" />}
      title="Credit balance"
      aside={
        <button
          type="button"
          onClick={() => void balance.refetch()}
          disabled={balance.isFetching}
          aria-label="Refresh balance"
          className={buttonClasses("ghost", "sm")}
        >
          <RotateCw
            aria-hidden="true"
            className={balance.isFetching ? "size-4 animate-spin" : "size-4"}
          />
        </button>
      }
    >
      {balance.isPending ? (
        <Skeleton className="h-10 w-28" />
      ) : balance.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {CREDITS_TEXT.loadBalanceFailed}
        </p>
      ) : (
        <p
          data-testid="credit-balance"
          className="font-display text-4xl font-bold text-stone-900 dark:text-white"
        >
          {formatCount(balance.data)}
        </p>
      )}
      <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">
        {settings.creditsPerMinute} credits per minute of voice call · {CREDITS_TEXT.neverExpire}
      </p>
      <div className="mt-3">
        <LowBalanceNotice
          credits={balance.data}
          creditsPerMinute={settings.creditsPerMinute}
          buyLink={false}
        />
      </div>
    </SummaryCard>
  );
}

/** The subscription's plan and status, and the button that opens the Subscription dialog. */
function SubscriptionSummary({ onManage }: { onManage: () => void }) {
  const subscription = useQuery(mySubscriptionQuery());
  const current = subscription.data ?? null;
  const status = current?.status ?? "inactive";
  const subscribed = isSubscribed(status);
  return (
    <SummaryCard icon={<Crown aria-hidden="true" className="size-5" />} title="Subscription">
      {subscription.isPending ? (
        <Skeleton className="h-8 w-40" />
      ) : subscription.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          Failed to load your subscription
        </p>
      ) : (
        <div data-testid="subscription-summary">
          <p className="font-display text-2xl font-bold text-stone-900 dark:text-white">
            {subscribed ? (current?.plan?.name ?? "Plan") : "Free"}
          </p>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            {status === "active"
              ? `Unlimited messages · renews ${formatDate(current?.endDate)}`
              : status === "trialing"
                ? `Unlimited messages · ${subscriptionStatusText(status, current?.endDate, formatDate)}`
                : status === "canceled"
                  ? `${SUBSCRIPTION_STATUS_LABELS.canceled} · ends ${formatDate(current?.endDate)}`
                  : "Subscribe for unlimited messages."}
          </p>
        </div>
      )}
      <button type="button" onClick={onManage} className={buttonClasses("secondary", "sm", "mt-4")}>
        {subscribed ? "Manage Subscription" : "Subscribe Now"}
      </button>
    </SummaryCard>
  );
}

function PackageCard({
  pkg,
  pending,
  disabled,
  onBuy,
}: {
  pkg: CreditPackage;
  pending: boolean;
  disabled: boolean;
  onBuy: () => void;
}) {
  const price = pkg.discountedPrice;
  // The spec's estimate: credits divided by 5 (user-side spec, section 2).
  const minutes = Math.floor(pkg.credits / BILLING_DEFAULTS.creditsPerMinuteEstimate);
  return (
    <Card className="flex flex-col p-5" data-testid="credit-package">
      <div className="flex items-start justify-between gap-2">
        <h3 className="font-display text-lg font-semibold break-words text-stone-900 dark:text-white">
          {pkg.name}
        </h3>
        {pkg.discount > 0 && <Badge tone="green">{pkg.discount}% off</Badge>}
      </div>
      <p className="mt-3 font-display text-3xl font-bold text-stone-900 dark:text-white">
        {formatCount(pkg.credits)}
        <span className="ml-1.5 text-base font-medium text-stone-500 dark:text-stone-400">
          credits
        </span>
      </p>
      <p className="mt-1 flex items-center gap-1.5 text-sm text-stone-600 dark:text-stone-400">
        <Clock aria-hidden="true" className="size-4" />≈ {formatCount(minutes)} minutes of voice
        call
      </p>
      <p className="mt-4 flex items-baseline gap-2">
        <span className="font-display text-2xl font-bold text-stone-900 dark:text-white">
          {formatMoney(price, pkg.currency)}
        </span>
        {pkg.discount > 0 && (
          <s className="text-sm text-stone-500 dark:text-stone-400">
            {formatMoney(pkg.price, pkg.currency)}
          </s>
        )}
      </p>
      <button
        type="button"
        onClick={onBuy}
        disabled={disabled}
        aria-label={`Buy ${pkg.name}`}
        className={buttonClasses("primary", "md", "mt-5 w-full")}
      >
        {pending ? (
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        ) : (
          <ShoppingCart aria-hidden="true" className="size-4" />
        )}
        Buy
      </button>
    </Card>
  );
}

/**
 * Buying a package asks first (issue 26, item 3): delivery now and the withdrawal right lost for
 * what is used, an unticked box that must be ticked before the checkout opens.
 */
function PackageConsentDialog({
  pkg,
  pending,
  onClose,
  onContinue,
}: {
  pkg: CreditPackage | null;
  pending: boolean;
  onClose: () => void;
  onContinue: (pkg: CreditPackage, promotionCode: string | null) => void;
}) {
  const [agreed, setAgreed] = useState(false);
  const [promotion, setPromotion] = useState<PromotionQuote | null>(null);
  const shown = pkg;
  const price = promotion ? promotion.amount : (shown?.discountedPrice ?? 0);
  return (
    <Dialog
      open={shown !== null}
      onOpenChange={(open) => {
        if (!open && !pending) {
          setAgreed(false);
          setPromotion(null);
          onClose();
        }
      }}
      title={shown ? `Buy ${shown.name}` : "Buy credits"}
      description={
        shown
          ? `${formatCount(shown.credits)} credits for ${formatMoney(price, shown.currency)}`
          : undefined
      }
      testId="package-consent-dialog"
    >
      {shown ? (
        <div className="space-y-4">
          <PromotionCodeField
            key={shown._id}
            target={{ packageId: shown._id }}
            disabled={pending}
            onChange={setPromotion}
          />
          <ConsentCheckbox
            text={creditsConsentText({
              credits: shown.credits,
              price,
              currency: shown.currency,
            })}
            checked={agreed}
            onCheckedChange={setAgreed}
            disabled={pending}
          />
          <CheckoutTerms />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={() => {
                setAgreed(false);
                setPromotion(null);
                onClose();
              }}
              disabled={pending}
              className={buttonClasses("secondary", "md")}
            >
              Cancel
            </button>
            <button
              type="button"
              disabled={!agreed || pending}
              onClick={() => onContinue(shown, promotion?.code ?? null)}
              className={buttonClasses("primary", "md")}
            >
              {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
              Continue to payment
            </button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}

/** The active credit packages, sorted by credits, each with its Buy button. */
function Packages() {
  const packages = useQuery(creditPackagesQuery());
  const [buying, setBuying] = useState<CreditPackage | null>(null);
  const checkout = useMutation({
    mutationFn: createPackageCheckout,
    onSuccess: (url) => redirectTo.go(url),
    onError: (error) => toast.error(checkoutErrorMessage(error)),
  });
  const headingId = useId();

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <div>
        <h2
          id={headingId}
          className="font-display text-xl font-bold text-stone-900 dark:text-white"
        >
          Buy Credits
        </h2>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Credits pay for voice calls. {CREDITS_TEXT.neverExpire}.
        </p>
        <CheckoutTerms />
      </div>
      {packages.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="packages-loading">
          {[0, 1, 2].map((i) => (
            <Card key={i} className="space-y-3 p-5">
              <Skeleton className="h-5 w-24" />
              <Skeleton className="h-8 w-32" />
              <Skeleton className="h-10 w-full" />
            </Card>
          ))}
        </div>
      ) : packages.isError ? (
        <ErrorState
          message={CREDITS_TEXT.loadPackagesFailed}
          onRetry={() => void packages.refetch()}
        />
      ) : packages.data.length === 0 ? (
        <Card className="px-4 py-10 text-center text-sm text-stone-600 dark:text-stone-400">
          No credit packages are available right now.
        </Card>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {packages.data.map((pkg) => (
            <PackageCard
              key={pkg._id}
              pkg={pkg}
              pending={checkout.isPending && checkout.variables?.packageId === pkg._id}
              disabled={checkout.isPending || checkout.isSuccess}
              onBuy={() => setBuying(pkg)}
            />
          ))}
        </div>
      )}
      <PackageConsentDialog
        pkg={buying}
        pending={checkout.isPending || checkout.isSuccess}
        onClose={() => setBuying(null)}
        onContinue={(pkg, promotionCode) => checkout.mutate({ packageId: pkg._id, promotionCode })}
      />
    </section>
  );
}

/**
 * /dashboard/credits: the balance, the subscription, the credit packages and the recent payment
 * history (5 per page); `?checkout=success|cancel` shows the result of a hosted checkout.
 */
export function CreditsPage() {
  const [dialogOpen, setDialogOpen] = useState(false);
  useDocumentTitle("Credits and Billing · Twinline");
  return (
    <div className="space-y-8">
      <PageHeader
        title="Credits and Billing"
        description="Your balance, your subscription and the credit packages you can buy."
      />
      <CheckoutReturn />
      <div className="grid gap-4 md:grid-cols-2">
        <BalanceCard />
        <SubscriptionSummary onManage={() => setDialogOpen(true)} />
      </div>
      <Packages />
      <Card className="overflow-hidden">
        <TransactionsList
          kind="credits"
          title="Recent Payment History"
          pageSize={CREDITS_HISTORY_PAGE_SIZE}
          errorMessage={CREDITS_TEXT.loadHistoryFailed}
        />
      </Card>
      <SubscriptionDialog open={dialogOpen} onOpenChange={setDialogOpen} />
    </div>
  );
}
