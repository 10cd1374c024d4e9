import {
  EMBED_SESSION_MESSAGE,
  EMBED_TRIAL_DEVICE_MESSAGE,
  EMBED_TRIAL_READY_MESSAGE,
  TRIAL_DEVICE_MAX_LENGTH,
} from "@twinline/contracts";
import type { SessionGrant } from "@/lib/auth/session-store";
import { readStoredUser } from "@/lib/auth/session-store";
import { getUserToken } from "@/lib/storage";
import { carryTrialDevice, currentTrialDevice } from "@/lib/trial-device";

/**
 * The session's way from the sign-in popup to the embed frame (docs/decisions/0085-embed-widget.md).
 *
 * The frame sits in another site's page, so its storage is that site's partition (and its cookies
 * may be blocked): a sign-in there would not reach it. The popup is a top-level page of this
 * origin: the visitor signs up or logs in there as on /auth, then the popup posts the bearer token
 * and user to its opener, the frame, naming this origin as the only allowed receiver; the frame
 * takes a message only from this origin and from the popup it opened.
 *
 * The other way, the frame's anonymous trial (decision 0089): the popup, once loaded, asks its
 * opener for the trial's device; the frame answers only a request from this origin and from the
 * popup it opened, posting the signed id to that popup with this origin as the only allowed
 * receiver; the popup takes it only from its opener on this origin and sends it with the sign-up
 * or login, whose hand-over makes the trial the account's.
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

export interface EmbedTrialDeviceMessage {
  type: typeof EMBED_TRIAL_DEVICE_MESSAGE;
  device: string;
}

/** In the frame: answers the popup's request for the trial's device (when the frame has one). */
export function answerTrialDeviceRequest(event: MessageEvent, popup: Window | null): boolean {
  if (event.origin !== window.location.origin) return false;
  if (!popup || event.source !== popup) return false;
  const data = event.data as { type?: unknown } | null;
  if (!data || data.type !== EMBED_TRIAL_READY_MESSAGE) return false;
  const device = currentTrialDevice();
  if (!device) return false;
  const message: EmbedTrialDeviceMessage = { type: EMBED_TRIAL_DEVICE_MESSAGE, device };
  popup.postMessage(message, window.location.origin);
  return true;
}

/** In the popup: the trial device a message carries, when it is its opener's on this origin. */
export function trialDeviceFromMessage(event: MessageEvent, opener: Window | null): string | null {
  if (event.origin !== window.location.origin) return null;
  if (!opener || event.source !== opener) return null;
  const data = event.data as Partial<EmbedTrialDeviceMessage> | null;
  if (!data || data.type !== EMBED_TRIAL_DEVICE_MESSAGE) return null;
  if (typeof data.device !== "string" || !data.device) return null;
  if (data.device.length > TRIAL_DEVICE_MAX_LENGTH) return null;
  return data.device;
}

/**
 * In the popup: asks the frame that opened it for its trial device; the device it answers goes
 * with this page's API calls (memory only). Returns the clean-up.
 */
export function receiveTrialDevice(): () => void {
  const opener = window.opener as Window | null;
  if (!opener || opener.closed) return () => {};
  const onMessage = (event: MessageEvent) => {
    const device = trialDeviceFromMessage(event, opener);
    if (!device) return;
    window.removeEventListener("message", onMessage);
    carryTrialDevice({ persist: false, device });
  };
  window.addEventListener("message", onMessage);
  opener.postMessage({ type: EMBED_TRIAL_READY_MESSAGE }, window.location.origin);
  return () => window.removeEventListener("message", onMessage);
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
    if (answerTrialDeviceRequest(event, popup)) return;
    const grant = sessionFromMessage(event, popup);
    if (!grant) return;
    window.removeEventListener("message", onMessage);
    signIn(grant);
  };
  window.addEventListener("message", onMessage);
  return popup;
}
