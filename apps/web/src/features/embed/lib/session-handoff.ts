import { EMBED_SESSION_MESSAGE } from "@twinline/contracts";
import type { SessionGrant } from "@/lib/auth/session-store";
import { readStoredUser } from "@/lib/auth/session-store";
import { getUserToken } from "@/lib/storage";

/**
 * The session's way from the sign-in popup to the embed frame (docs/decisions/0085-embed-widget.md).
 *
 * The frame sits in another site's page, so its storage is that site's partition (and its cookies
 * may be blocked): a sign-in there would not reach it. The popup is a top-level page of this
 * origin: the visitor signs up or logs in there as on /auth, then the popup posts the bearer token
 * and user to its opener, the frame, naming this origin as the only allowed receiver; the frame
 * takes a message only from this origin and from the popup it opened.
 */
export const EMBED_SIGN_IN_PATH = "/embed/sign-in";

export interface EmbedSessionMessage extends SessionGrant {
  type: typeof EMBED_SESSION_MESSAGE;
}

/** In the popup: posts the stored session to the frame that opened it, then closes. */
export function handSessionBack(): boolean {
  const token = getUserToken();
  const user = readStoredUser();
  const opener = window.opener as Window | null;
  if (!token || !user || !opener || opener.closed) return false;
  const message: EmbedSessionMessage = { type: EMBED_SESSION_MESSAGE, token, user };
  opener.postMessage(message, window.location.origin);
  window.close();
  return true;
}

/** In the frame: the session a message carries, when it is one from `popup` on this origin. */
export function sessionFromMessage(event: MessageEvent, popup: Window | null): SessionGrant | null {
  if (event.origin !== window.location.origin) return null;
  if (!popup || event.source !== popup) return null;
  const data = event.data as Partial<EmbedSessionMessage> | null;
  if (!data || data.type !== EMBED_SESSION_MESSAGE) return null;
  if (typeof data.token !== "string" || !data.token) return null;
  return { token: data.token, user: data.user };
}

/** The popup's features: a small window over the host page. */
const POPUP_FEATURES = "popup,width=480,height=720";

/** In the frame: opens the popup on Sign Up or Login, and hands each session it sends to `signIn`. */
export function openSignInPopup(
  tab: "signup" | "login",
  signIn: (grant: SessionGrant) => void,
): Window | null {
  const popup = window.open(`${EMBED_SIGN_IN_PATH}?tab=${tab}`, "twinline-sign-in", POPUP_FEATURES);
  if (!popup) return null;
  const onMessage = (event: MessageEvent) => {
    const grant = sessionFromMessage(event, popup);
    if (!grant) return;
    window.removeEventListener("message", onMessage);
    signIn(grant);
  };
  window.addEventListener("message", onMessage);
  return popup;
}
