import { useCallback } from "react";
import { useNavigate } from "react-router";
import { AuthPage } from "@/features/auth/components/auth-page";
import { DateOfBirthGate } from "@/features/auth/components/date-of-birth-gate";
import { ChatPage } from "@/features/chat";
import { EmbedFrame, handSessionBack } from "@/features/embed";

/** Subscribing happens on this site's own page, in a tab of its own (not in the host's frame). */
function openPremium() {
  window.open("/premium", "_blank", "noopener");
}

/**
 * `/embed`: the chat bubble's frame on the creator's site (issue 27 item 5; decision 0085): the
 * chat feature's screen for a signed-in fan (its AI notice and crisis protocol come with it),
 * behind the date-of-birth gate as on /dashboard/chat; the sign-up call for a visitor. The trial
 * chat (issue 27 item 1) drops into EmbedFrame's `visitor` slot here.
 */
export function EmbedRoute() {
  return (
    <EmbedFrame
      chat={
        <DateOfBirthGate>
          <ChatPage onSubscribe={openPremium} />
        </DateOfBirthGate>
      }
    />
  );
}

/**
 * `/embed/sign-in`: the popup the frame opens. Sign up or log in as on /auth; then the session
 * goes back to the frame by postMessage and the popup closes. Opened without a frame (a bookmark),
 * it leads to the dashboard like /auth.
 */
export function EmbedSignInRoute() {
  const navigate = useNavigate();
  const onSignedIn = useCallback(() => {
    if (!handSessionBack()) navigate("/dashboard", { replace: true });
  }, [navigate]);
  return <AuthPage onSignedIn={onSignedIn} />;
}
