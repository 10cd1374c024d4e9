import { useQueryClient } from "@tanstack/react-query";
import { CircleCheck, CircleX, LoaderCircle, X } from "lucide-react";
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { useAuth } from "@/lib/auth/auth-provider";
import { billingKeys } from "../api/billing";
import { useCheckoutFulfilment } from "../hooks/use-checkout-fulfilment";

/**
 * The result of a hosted checkout, shown on /dashboard/credits when the checkout sends the user
 * back with `?checkout=success&session_id=…` or `?checkout=canceled` (plans: `?subscription=…`). Credits land only when the
 * payment is fulfilled (webhook or sandbox), never on this redirect: on success the page asks
 * until the fulfilment is there, then refreshes the balance, subscription and history.
 */
export function CheckoutReturn() {
  const [params, setParams] = useSearchParams();
  // Packages return with ?checkout=…, plans with ?subscription=… (CHECKOUT_RETURN_PATHS).
  const outcome = params.get("checkout") ?? params.get("subscription");
  const sessionId = params.get("session_id");
  const dismiss = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("checkout");
        next.delete("subscription");
        next.delete("session_id");
        return next;
      },
      { replace: true },
    );

  if (outcome === "canceled" || outcome === "cancel") {
    return (
      <Banner tone="neutral" onDismiss={dismiss} testId="checkout-cancelled">
        <CircleX aria-hidden="true" className="size-5 shrink-0" />
        <span>
          <strong className="block">Checkout cancelled</strong>
          Nothing was charged. You can pick a package or plan again whenever you like.
        </span>
      </Banner>
    );
  }
  if (outcome === "success" && sessionId) {
    return <SuccessBanner sessionId={sessionId} onDismiss={dismiss} />;
  }
  return null;
}

function SuccessBanner({ sessionId, onDismiss }: { sessionId: string; onDismiss: () => void }) {
  const status = useCheckoutFulfilment(sessionId);
  const queryClient = useQueryClient();
  const { refreshUser } = useAuth();

  useEffect(() => {
    if (status.state === "fulfilled") {
      void queryClient.invalidateQueries({ queryKey: billingKeys.all });
      void refreshUser({ force: true }).catch(() => {});
    }
  }, [status.state, queryClient, refreshUser]);

  if (status.state === "fulfilled") {
    return (
      <Banner tone="success" onDismiss={onDismiss} testId="checkout-success">
        <CircleCheck aria-hidden="true" className="size-5 shrink-0" />
        <span>
          <strong className="block">Payment successful</strong>
          {status.summary}
        </span>
      </Banner>
    );
  }
  if (status.state === "failed") {
    return (
      <Banner tone="error" onDismiss={onDismiss} testId="checkout-failed">
        <CircleX aria-hidden="true" className="size-5 shrink-0" />
        <span>
          <strong className="block">Payment not completed</strong>
          {status.summary}
        </span>
      </Banner>
    );
  }
  return (
    <Banner tone="neutral" testId="checkout-pending">
      <LoaderCircle aria-hidden="true" className="size-5 shrink-0 animate-spin" />
      <span>
        <strong className="block">Confirming your payment…</strong>
        {status.state === "slow"
          ? "This is taking longer than usual. Your purchase will appear here as soon as the payment is confirmed."
          : "Your purchase appears as soon as the payment is confirmed."}
      </span>
    </Banner>
  );
}

const TONES = {
  success:
    "border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-400/30 dark:bg-emerald-500/10 dark:text-emerald-200",
  error:
    "border-red-200 bg-red-50 text-red-700 dark:border-red-400/30 dark:bg-red-500/10 dark:text-red-300",
  neutral:
    "border-sky-200 bg-sky-50 text-sky-800 dark:border-sky-400/30 dark:bg-sky-500/10 dark:text-sky-200",
} as const;

function Banner({
  tone,
  onDismiss,
  testId,
  children,
}: {
  tone: keyof typeof TONES;
  onDismiss?: () => void;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <div
      role="status"
      data-testid={testId}
      className={`flex items-start gap-3 rounded-2xl border px-4 py-3 text-sm ${TONES[tone]}`}
    >
      {children}
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss"
          className="ml-auto inline-flex size-7 shrink-0 items-center justify-center rounded-full hover:bg-black/5 dark:hover:bg-white/10"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      )}
    </div>
  );
}
