import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { AuthPage } from "@/features/auth/components/auth-page";
import { DateOfBirthGate } from "@/features/auth/components/date-of-birth-gate";
import { ChatPage } from "@/features/chat";
import { TrialChat } from "@/features/chat/components/trial-chat";
import { EmbedFrame, handSessionBack, receiveTrialDevice } from "@/features/embed";
import { useSettings } from "@/lib/settings";
import { carryTrialDevice } from "@/lib/trial-device";

/** Subscribing happens on this site's own page, in a tab of its own (not in the host's frame). */
function openPremium() {
  window.open("/premium", "_blank", "noopener");
}

/**
 * `/embed`: the chat bubble's frame on the creator's site (issue 27 item 5; decision 0085): the
 * chat feature's screen for a signed-in fan (its AI notice and crisis protocol come with it),
 * behind the date-of-birth gate as on /dashboard/chat; for a visitor, the anonymous trial chat
 * (decision 0084) above the sign-up call, its device carried in a header because a frame on
 * another site keeps no cookie (decision 0089).
 */
export function EmbedRoute() {
  const { settings } = useSettings();
  // Before the trial chat's first call (in render: children's effects run before ours).
  useState(() => carryTrialDevice({ persist: true }));
  const trialOffered = settings.anonymousMessages > 0;
  return (
    <EmbedFrame
      chat={
        <DateOfBirthGate>
          <ChatPage onSubscribe={openPremium} />
        </DateOfBirthGate>
      }
      visitor={
        trialOffered
          ? (openSignIn) => <TrialChat onAllowanceUsed={() => openSignIn("signup")} />
          : undefined
      }
    />
  );
}

/**
 * `/embed/sign-in`: the popup the frame opens. It asks the frame for its trial device, which goes
 * with the sign-up or login so the trial becomes the account's (decision 0089). Sign up or log in
 * as on /auth; then the session goes back to the frame by postMessage and the popup closes.
 * Opened without a frame (a bookmark), it leads to the dashboard like /auth.
 */
export function EmbedSignInRoute() {
  const navigate = useNavigate();
  useEffect(() => receiveTrialDevice(), []);
  const onSignedIn = useCallback(() => {
    if (!handSessionBack()) navigate("/dashboard", { replace: true });
  }, [navigate]);
  return <AuthPage onSignedIn={onSignedIn} />;
}
