import { PUSH_NOTICE_TEXT, type PushKind, type PushPayload } from "@twinline/contracts";
import type { PushNoticePayloads } from "../enqueue.ts";

/** Where a click on each kind takes the fan. */
const OPENS: Record<PushKind, string> = {
  reply: "/dashboard/chat",
  lowBalance: "/dashboard/credits",
  renewalFailed: "/dashboard/credits",
};

/** What a queued notice shows on the fan's device. */
export function renderNotice(
  kind: PushKind,
  payload: Record<string, unknown>,
  personaName: string,
): PushPayload {
  const base = { kind, url: OPENS[kind], tag: kind };
  if (kind === "reply") {
    // No words of the conversation: a notification shows on a locked screen.
    return { ...base, title: PUSH_NOTICE_TEXT.reply(personaName), body: "Tap to read it." };
  }
  if (kind === "lowBalance") {
    const { balance, creditsPerMinute } = payload as unknown as PushNoticePayloads["lowBalance"];
    return {
      ...base,
      title: PUSH_NOTICE_TEXT.lowBalance,
      body: PUSH_NOTICE_TEXT.lowBalanceBody(balance, creditsPerMinute),
    };
  }
  const { planName } = payload as unknown as PushNoticePayloads["renewalFailed"];
  return {
    ...base,
    title: PUSH_NOTICE_TEXT.renewalFailed,
    body: PUSH_NOTICE_TEXT.renewalFailedBody(planName),
  };
}
