import { useCallback, useState } from "react";
import { DateOfBirthGate } from "@/features/auth/components/date-of-birth-gate";
import { SubscriptionDialog } from "@/features/billing";
import { ChatPage } from "@/features/chat";

/**
 * `/dashboard/chat`: the chat screen, whose Message Limit Reached toast and bubble open the
 * billing feature's Subscription dialog (the route composes both; features never import each other).
 */
export function ChatRoute() {
  const [open, setOpen] = useState(false);
  const onSubscribe = useCallback(() => setOpen(true), []);
  return (
    <DateOfBirthGate>
      <ChatPage onSubscribe={onSubscribe} />
      <SubscriptionDialog open={open} onOpenChange={setOpen} />
    </DateOfBirthGate>
  );
}
