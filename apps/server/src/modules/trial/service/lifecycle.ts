import type { TrialState } from "@twinline/contracts";
import { toChatMessage } from "../../chat/service.ts";
import { asChatRow } from "../repository.ts";
import type { TrialDeps } from "./deps.ts";

/** Trials last active longer ago than this are deleted by the `trial.cleanup` job. */
export const TRIAL_RETENTION_DAYS = 30;

/** The allowance, what this device has left of it, and its conversation. */
export async function trialState(
  deps: Pick<TrialDeps, "repository" | "settings">,
  deviceId: string | undefined,
): Promise<TrialState> {
  const allowance = (await deps.settings.get()).anonymousMessages;
  const trial = deviceId ? await deps.repository.find(deviceId) : undefined;
  if (!trial) return { allowance, remaining: allowance, messages: [] };
  const used = trial.claimedAt ? allowance : trial.messageCount;
  const rows = trial.claimedAt ? [] : await deps.repository.messages(trial.id);
  return {
    allowance,
    remaining: Math.max(0, allowance - used),
    messages: rows.map((row) => toChatMessage(asChatRow(row))),
  };
}

/** The hand-over at sign-up or sign-in (exactly once; repository.claim). */
export async function claim(
  deps: Pick<TrialDeps, "repository" | "onClaimed">,
  deviceId: string,
  userId: string,
): Promise<string | null> {
  const conversationId = await deps.repository.claim(deviceId, userId);
  if (conversationId) deps.onClaimed?.(userId);
  return conversationId;
}

/** The scheduled clean-up: trials inactive for TRIAL_RETENTION_DAYS are deleted. */
export async function deleteAbandoned(
  deps: Pick<TrialDeps, "repository" | "cleanupClock">,
): Promise<number> {
  const before = new Date(deps.cleanupClock.now() - TRIAL_RETENTION_DAYS * 86_400_000);
  return deps.repository.deleteInactiveSince(before);
}
