import { aiNoticeText, BREAK_REMINDER_TEXT, crisisMessageText, routes } from "@twinline/contracts";
import type { TrialMessageRow } from "../../../db/schema/index.ts";
import type { StoredFlag } from "../../chat/crisis.ts";
import { stepSitting } from "../../chat/sitting.ts";
import type { TrialDeps } from "./deps.ts";

/** The AI notice (and break reminder) due with this message, by the member chat's rule. */
export async function noticesFor(
  deps: Pick<TrialDeps, "repository" | "noticeClock">,
  trial: { id: string; sitting: Parameters<typeof stepSitting>[0] | null },
  starts: boolean,
  name: string,
): Promise<TrialMessageRow[]> {
  const step = stepSitting(trial.sitting ?? undefined, deps.noticeClock.now(), starts);
  await deps.repository.setSitting(trial.id, step.sitting);
  if (!step.notice) return [];
  return deps.repository.add(trial.id, [
    { sender: "product", productKind: "ai-notice", content: aiNoticeText(name) },
    ...(step.breakReminder
      ? [
          {
            sender: "product" as const,
            productKind: "break-reminder" as const,
            content: BREAK_REMINDER_TEXT,
          },
        ]
      : []),
  ]);
}

/** The caring message instead of a reply, counted and audited as for members. */
export async function referral(
  deps: Pick<TrialDeps, "repository" | "crisis">,
  trialId: string,
  flag: StoredFlag,
  subject: "fan" | "reply",
) {
  const resources = await deps.crisis.resourcesFor(null);
  const [message] = await deps.repository.add(trialId, [
    { sender: "product", productKind: "crisis-support", content: crisisMessageText(resources) },
  ]);
  if (!message) throw new Error("The crisis message was not stored");
  await deps.crisis.recordReferral({
    messageId: message.id,
    flag,
    subject,
    channel: "trial",
    origin: routes.trial.message.path,
  });
  return { message, resources };
}
