import { useQuery } from "@tanstack/react-query";
import type { CheckoutSessionView } from "@twinline/contracts";
import { useEffect, useState } from "react";
import { formatCount } from "@/lib/format";
import { checkoutSessionQuery } from "../api/billing";

/** How often the return page asks, and after how long it says the payment is slow. */
export const FULFILMENT_POLL_MS = 1500;
export const FULFILMENT_SLOW_MS = 30_000;

export type FulfilmentState =
  | { state: "waiting" | "slow"; summary: null }
  | { state: "fulfilled" | "failed"; summary: string };

function describe(session: CheckoutSessionView): string {
  if (session.mode === "subscription") {
    return `You are subscribed to ${session.itemName}. Enjoy unlimited messages.`;
  }
  const credits = session.credits ? `${formatCount(session.credits)} credits` : "Your credits";
  return `${credits} from ${session.itemName} were added to your balance.`;
}

function failed(session: CheckoutSessionView): boolean {
  return (
    session.status === "expired" ||
    session.status === "canceled" ||
    session.paymentStatus === "failed"
  );
}

function settled(session: CheckoutSessionView): boolean {
  return session.fulfilled || failed(session);
}

/**
 * Asks the server about a Checkout Session until its fulfilment has landed (credits and
 * subscriptions land only by webhook or sandbox fulfilment, never on the redirect).
 */
export function useCheckoutFulfilment(sessionId: string): FulfilmentState {
  const [slow, setSlow] = useState(false);
  const status = useQuery({
    ...checkoutSessionQuery(sessionId),
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && settled(data) ? false : FULFILMENT_POLL_MS;
    },
  });
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), FULFILMENT_SLOW_MS);
    return () => clearTimeout(timer);
  }, []);

  const data = status.data;
  if (data?.fulfilled) return { state: "fulfilled", summary: describe(data) };
  if (data && failed(data)) {
    return {
      state: "failed",
      summary:
        data.paymentStatus === "failed"
          ? "The payment failed. Nothing was charged."
          : "This checkout was not completed. Nothing was charged.",
    };
  }
  return { state: slow ? "slow" : "waiting", summary: null };
}
