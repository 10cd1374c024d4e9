import {
  CHAT_MESSAGES,
  countWords,
  TRIAL_CODES,
  TRIAL_MESSAGES,
  type TrialMessageRequest,
} from "@twinline/contracts";
import { utcDay } from "../../../lib/utc-day.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { buildChatRequest, type ChatRequest, HISTORY_FETCH_LIMIT } from "../../chat/prompt.ts";
import { knowledgeFor, toChatMessage } from "../../chat/service.ts";
import type { SettingsService } from "../../settings/service.ts";
import { asChatRow, TrialLimitReached, type TrialRefusal } from "../repository.ts";
import { addressKey, type TrialDeps } from "./deps.ts";
import { noticesFor, referral } from "./product-turns.ts";
import { crisisReply, modelReply, type PreparedTrialSend, type TakenSend } from "./reply.ts";

type TrialSettings = Pick<
  Awaited<ReturnType<SettingsService["get"]>>,
  "anonymousMessages" | "maxWordsPerMessage"
>;

const REFUSALS: Record<TrialRefusal, { status: number; code: string; message: string }> = {
  used: { status: 403, code: TRIAL_CODES.used, message: TRIAL_MESSAGES.used },
  address: { status: 429, code: TRIAL_CODES.address, message: TRIAL_MESSAGES.address },
  global: { status: 429, code: TRIAL_CODES.global, message: TRIAL_MESSAGES.global },
};

const refusal = (which: TrialRefusal) => {
  const { status, code, message } = REFUSALS[which];
  return new HttpError(status, message, undefined, { code });
};

/**
 * The rules, then the message: refused when the trial is off (403 trial_off), blank or too
 * long (400, as the member chat), over the device's allowance (403 trial_used), the
 * address's or the site's daily cap (429; the operator's `anonymousMessagesPerAddressPerDay`
 * and `anonymousMessagesPerDay`). Counted against all three before any provider
 * is called (the crisis check included), so no visitor spends more than the caps allow.
 */
export async function prepare(
  deps: TrialDeps,
  deviceId: string,
  ip: string,
  body: TrialMessageRequest,
): Promise<PreparedTrialSend> {
  const { repository, crisis } = deps;
  const current = await deps.settings.get();
  const allowance = current.anonymousMessages;
  const message = trialMessageOf(body, current);
  const taken = await repository
    .take({
      deviceId,
      allowance,
      addressKey: addressKey(ip),
      day: utcDay(new Date(deps.cleanupClock.now())),
      // The operator's caps as this send read them (a save applies to the next send).
      addressCap: current.anonymousMessagesPerAddressPerDay,
      globalCap: current.anonymousMessagesPerDay,
    })
    .catch((error: unknown) => {
      throw error instanceof TrialLimitReached ? refusal(error.refusal) : error;
    });
  const { trial, starts } = taken;
  const remaining = Math.max(0, allowance - trial.messageCount);
  const history = starts ? [] : await repository.history(trial.id, HISTORY_FETCH_LIMIT);

  const flag = await crisis.check(message).catch(async (error: unknown) => {
    await repository.giveBack(trial.id);
    throw error;
  });
  const [fan] = await repository.add(trial.id, [
    {
      sender: "user",
      content: message,
      ...(flag ? { flagCategory: flag.category, flagSource: flag.source } : {}),
    },
  ]);
  if (!fan) throw new Error("The visitor's message was not stored");
  const notices = (await noticesFor(deps, trial, starts, current.aiProfile.name)).map((row) =>
    toChatMessage(asChatRow(row)),
  );
  const send: TakenSend = {
    trialId: trial.id,
    userMessage: toChatMessage(asChatRow(fan)),
    remaining,
    notices,
  };

  if (flag) {
    // A crisis turn costs the visitor nothing of their allowance (the caps keep it).
    await repository.giveBack(trial.id);
    const turn = await referral(deps, trial.id, flag, "fan");
    return { notices, reply: crisisReply(send, turn) };
  }

  const request: ChatRequest = buildChatRequest({
    personaName: current.aiProfile.name,
    systemPrompt: await deps.persona.systemPrompt(),
    passages: await knowledgeFor(deps.persona, message, deps.log),
    history: history.reverse().map((row) => ({
      sender: row.sender === "ai" ? ("ai" as const) : ("user" as const),
      content: row.content,
    })),
    message,
  });
  return { notices, reply: modelReply(deps, send, request) };
}

/**
 * The visitor's message, trimmed, if the trial takes it: 403 while the operator has the trial
 * off (an allowance of 0), 400 when blank or longer than the member chat's word limit.
 */
export function trialMessageOf(body: TrialMessageRequest, current: TrialSettings): string {
  if (current.anonymousMessages <= 0) {
    throw new HttpError(403, TRIAL_MESSAGES.off, undefined, { code: TRIAL_CODES.off });
  }
  const message = body.message.trim();
  if (!message) throw new HttpError(400, CHAT_MESSAGES.emptyMessage);
  if (countWords(message) > current.maxWordsPerMessage) {
    throw new HttpError(400, CHAT_MESSAGES.tooManyWords(current.maxWordsPerMessage));
  }
  return message;
}
