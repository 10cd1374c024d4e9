import { useParams } from "react-router";
import { CreditsPage, SandboxCheckoutPage, TransactionsPage } from "@/features/billing";

/** `/dashboard/credits`. */
export function CreditsRoute() {
  return <CreditsPage />;
}

/** `/dashboard/transactions`. */
export function TransactionsRoute() {
  return <TransactionsPage />;
}

/** `/checkout/sandbox/:sessionId`: the offline checkout, outside the dashboard. */
export function SandboxCheckoutRoute() {
  const { sessionId = "" } = useParams();
  return <SandboxCheckoutPage key={sessionId} sessionId={sessionId} />;
}
