import { createHash } from "node:crypto";
import {
  aiNoticeText,
  BREAK_REMINDER_TEXT,
  CHAT_MESSAGES,
  countWords,
  crisisMessageText,
  routes,
  type SendMessageResult,
  TRIAL_CODES,
  TRIAL_MESSAGES,
  type TrialMessageRequest,
  type TrialState,
} from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { TrialMessageRow } from "../../db/schema/index.ts";
import type { Clock } from "../../lib/clock.ts";
import { utcDay } from "../../lib/utc-day.ts";
import { HttpError } from "../../plugins/errors.ts";
import type { CrisisDesk, StoredFlag } from "../chat/crisis.ts";
import { buildChatRequest, type ChatRequest, HISTORY_FETCH_LIMIT } from "../chat/prompt.ts";
import {
  type ChatLlm,
  ClientGoneError,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  knowledgeFor,
  type PersonaSource,
  type ReplyOptions,
  streamReply,
  toChatMessage,
} from "../chat/service.ts";
import { stepSitting } from "../chat/sitting.ts";
import type { SettingsService } from "../settings/service.ts";
import {
  asChatRow,
  TrialLimitReached,
  type TrialRefusal,
  type TrialRepository,
} from "./repository.ts";

/** Trials last active longer ago than this are deleted by the `trial.cleanup` job. */
export const TRIAL_RETENTION_DAYS = 30;

export interface TrialServiceOptions {
  repository: TrialRepository;
  settings: Pick<SettingsService, "get">;
  llm: () => Promise<ChatLlm>;
  persona: PersonaSource;
  crisis: CrisisDesk;
  /** The clock of the AI notice's sittings (the member chat's) and of the clean-up. */
  noticeClock: Clock;
  cleanupClock: Clock;
  providerTimeoutMs?: number;
  log: FastifyBaseLogger;
  /** Told when a trial became a user's conversation (memory refreshes its summary). */
  onClaimed?: (userId: string) => void;
}

/** A visitor's message taken (counted and saved), whose reply is still to come. */
export interface PreparedTrialSend {
  notices: SendMessageResult["notices"] & {};
  reply(options: ReplyOptions): Promise<SendMessageResult>;
}

const REFUSALS: Record<TrialRefusal, { status: number; code: string; message: string }> = {
  used: { status: 403, code: TRIAL_CODES.used, message: TRIAL_MESSAGES.used },
  address: { status: 429, code: TRIAL_CODES.address, message: TRIAL_MESSAGES.address },
  global: { status: 429, code: TRIAL_CODES.global, message: TRIAL_MESSAGES.global },
};

const refusal = (which: TrialRefusal) => {
  const { status, code, message } = REFUSALS[which];
  return new HttpError(status, message, undefined, { code });
};

/** The address as the caps count it: a digest, so no address is stored. */
export const addressKey = (ip: string) => createHash("sha256").update(ip).digest("base64url");

/**
 * The anonymous trial (issue 27 item 1; docs/decisions/0084-anonymous-trial.md): the member
 * chat's rules and parts (prompt, persona, model, AI notice sittings, crisis check) for a visitor
 * known only by a device cookie, bounded per device, per address and per day, and the hand-over
 * of the conversation to the account the visitor makes or signs in to.
 */
export function createTrialService(options: TrialServiceOptions) {
  const { repository, settings, persona, crisis, log } = options;
  const timeoutMs = options.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;

  const passagesFor = (message: string) => knowledgeFor(persona, message, log);

  /** The AI notice (and break reminder) due with this message, by the member chat's rule. */
  const noticesFor = async (
    trial: { id: string; sitting: Parameters<typeof stepSitting>[0] | null },
    starts: boolean,
    name: string,
  ): Promise<TrialMessageRow[]> => {
    const step = stepSitting(trial.sitting ?? undefined, options.noticeClock.now(), starts);
    await repository.setSitting(trial.id, step.sitting);
    if (!step.notice) return [];
    return repository.add(trial.id, [
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
  };

  /** The caring message instead of a reply, counted and audited as for members. */
  const referral = async (trialId: string, flag: StoredFlag, subject: "fan" | "reply") => {
    const resources = await crisis.resourcesFor(null);
    const [message] = await repository.add(trialId, [
      { sender: "product", productKind: "crisis-support", content: crisisMessageText(resources) },
    ]);
    if (!message) throw new Error("The crisis message was not stored");
    await crisis.recordReferral({
      messageId: message.id,
      flag,
      subject,
      channel: "trial",
      origin: routes.trial.message.path,
    });
    return { message, resources };
  };

  return {
    /** The allowance, what this device has left of it, and its conversation. */
    async state(deviceId: string | undefined): Promise<TrialState> {
      const allowance = (await settings.get()).anonymousMessages;
      const trial = deviceId ? await repository.find(deviceId) : undefined;
      if (!trial) return { allowance, remaining: allowance, messages: [] };
      const used = trial.claimedAt ? allowance : trial.messageCount;
      const rows = trial.claimedAt ? [] : await repository.messages(trial.id);
      return {
        allowance,
        remaining: Math.max(0, allowance - used),
        messages: rows.map((row) => toChatMessage(asChatRow(row))),
      };
    },

    /**
     * The rules, then the message: refused when the trial is off (403 trial_off), blank or too
     * long (400, as the member chat), over the device's allowance (403 trial_used), the
     * address's or the site's daily cap (429; the operator's `anonymousMessagesPerAddressPerDay`
     * and `anonymousMessagesPerDay`). Counted against all three before any provider
     * is called (the crisis check included), so no visitor spends more than the caps allow.
     */
    async prepare(
      deviceId: string,
      ip: string,
      body: TrialMessageRequest,
    ): Promise<PreparedTrialSend> {
      const current = await settings.get();
      const allowance = current.anonymousMessages;
      if (allowance <= 0) {
        throw new HttpError(403, TRIAL_MESSAGES.off, undefined, { code: TRIAL_CODES.off });
      }
      const message = body.message.trim();
      if (!message) throw new HttpError(400, CHAT_MESSAGES.emptyMessage);
      if (countWords(message) > current.maxWordsPerMessage) {
        throw new HttpError(400, CHAT_MESSAGES.tooManyWords(current.maxWordsPerMessage));
      }
      const taken = await repository
        .take({
          deviceId,
          allowance,
          addressKey: addressKey(ip),
          day: utcDay(new Date(options.cleanupClock.now())),
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
      const notices = (await noticesFor(trial, starts, current.aiProfile.name)).map((row) =>
        toChatMessage(asChatRow(row)),
      );
      const userMessage = toChatMessage(asChatRow(fan));

      if (flag) {
        // A crisis turn costs the visitor nothing of their allowance (the caps keep it).
        await repository.giveBack(trial.id);
        const turn = await referral(trial.id, flag, "fan");
        return {
          notices,
          async reply(replyOptions) {
            const aiMessage = toChatMessage(asChatRow(turn.message));
            replyOptions.onToken?.(aiMessage.content);
            return {
              response: aiMessage.content,
              conversationId: trial.id,
              userMessage,
              aiMessage,
              remaining: remaining + 1,
              crisis: { resources: turn.resources },
              notices,
            };
          },
        };
      }

      const request: ChatRequest = buildChatRequest({
        personaName: current.aiProfile.name,
        systemPrompt: await persona.systemPrompt(),
        passages: await passagesFor(message),
        history: history.reverse().map((row) => ({
          sender: row.sender === "ai" ? ("ai" as const) : ("user" as const),
          content: row.content,
        })),
        message,
      });

      return {
        notices,
        async reply(replyOptions) {
          const { text, failure, clientGone, timedOut } = await streamReply(
            options.llm,
            request,
            replyOptions,
            timeoutMs,
          );
          if (clientGone) {
            if (text) await repository.add(trial.id, [{ sender: "ai", content: text }]);
            else await repository.giveBack(trial.id);
            throw new ClientGoneError();
          }
          if (failure !== undefined || timedOut || !text.trim()) {
            log.error({ err: failure, timedOut, empty: !text.trim() }, "The AI provider failed");
            await repository.giveBack(trial.id);
            throw new HttpError(502, CHAT_MESSAGES.aiFailure);
          }
          const replyFlag = await crisis.checkReply(text).catch(() => null);
          if (replyFlag) {
            const turn = await referral(trial.id, replyFlag, "reply");
            return {
              response: turn.message.content,
              conversationId: trial.id,
              userMessage,
              aiMessage: toChatMessage(asChatRow(turn.message)),
              remaining,
              crisis: { resources: turn.resources },
            };
          }
          const [saved] = await repository.add(trial.id, [{ sender: "ai", content: text }]);
          if (!saved) throw new Error("The reply was not stored");
          return {
            response: text,
            conversationId: trial.id,
            userMessage,
            aiMessage: toChatMessage(asChatRow(saved)),
            remaining,
            notices,
          };
        },
      };
    },

    /** The hand-over at sign-up or sign-in (exactly once; repository.claim). */
    async claim(deviceId: string, userId: string): Promise<string | null> {
      const conversationId = await repository.claim(deviceId, userId);
      if (conversationId) options.onClaimed?.(userId);
      return conversationId;
    },

    /** The scheduled clean-up: trials inactive for TRIAL_RETENTION_DAYS are deleted. */
    async deleteAbandoned(): Promise<number> {
      const before = new Date(options.cleanupClock.now() - TRIAL_RETENTION_DAYS * 86_400_000);
      return repository.deleteInactiveSince(before);
    },
  };
}

export type TrialService = ReturnType<typeof createTrialService>;
