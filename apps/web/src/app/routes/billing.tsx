import { useCallback, useState } from "react";
import { useParams } from "react-router";
import {
  CreditsPage,
  SandboxCheckoutPage,
  SubscriptionDialog,
  TransactionsPage,
} from "@/features/billing";
import { ChatPage } from "@/features/chat";

/** `/dashboard/credits`. */
export function CreditsRoute() {
  return <CreditsPage />;
}

/** `/dashboard/transactions`. */
export function TransactionsRoute() {
  return <TransactionsPage />;
}

/**
 * `/dashboard/chat`: the chat screen, whose Message Limit Reached toast and bubble open the
 * billing feature's Subscription dialog (the route composes both; features never import each other).
 */
export function ChatRoute() {
  const [open, setOpen] = useState(false);
  const onSubscribe = useCallback(() => setOpen(true), []);
  return (
    <>
      <ChatPage onSubscribe={onSubscribe} />
      <SubscriptionDialog open={open} onOpenChange={setOpen} />
    </>
  );
}

/** `/checkout/sandbox/:sessionId`: the offline checkout, outside the dashboard. */
export function SandboxCheckoutRoute() {
  const { sessionId = "" } = useParams();
  return <SandboxCheckoutPage key={sessionId} sessionId={sessionId} />;
}
