import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { checkoutSessionStatusQuery } from "../api/billing";

/** How often the return page asks, and after how long it says the payment is slow. */
export const FULFILMENT_POLL_MS = 1500;
export const FULFILMENT_SLOW_MS = 30_000;

export type FulfilmentState =
  | { state: "waiting" | "slow"; summary: null }
  | { state: "fulfilled" | "failed"; summary: string };

/**
 * Asks the server about a Checkout Session until its fulfilment has landed (credits and
 * subscriptions land only by webhook or sandbox fulfilment, never on the redirect).
 */
export function useCheckoutFulfilment(sessionId: string): FulfilmentState {
  const [slow, setSlow] = useState(false);
  const status = useQuery({
    ...checkoutSessionStatusQuery(sessionId),
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && data.status !== "open" ? false : FULFILMENT_POLL_MS;
    },
  });
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), FULFILMENT_SLOW_MS);
    return () => clearTimeout(timer);
  }, []);

  const data = status.data;
  if (data?.status === "fulfilled") return { state: "fulfilled", summary: data.summary };
  if (data?.status === "failed" || data?.status === "expired") {
    return { state: "failed", summary: data.summary };
  }
  return { state: slow ? "slow" : "waiting", summary: null };
}
