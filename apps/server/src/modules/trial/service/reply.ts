import { CHAT_MESSAGES, type ChatMessage, type SendMessageResult } from "@twinline/contracts";
import { HttpError } from "../../../plugins/errors.ts";
import type { ChatRequest } from "../../chat/prompt.ts";
import {
  ClientGoneError,
  type ReplyOptions,
  streamReply,
  toChatMessage,
} from "../../chat/service.ts";
import { asChatRow } from "../repository.ts";
import type { TrialDeps } from "./deps.ts";
import { referral } from "./product-turns.ts";

/** A visitor's message taken (counted and saved), whose reply is still to come. */
export interface PreparedTrialSend {
  notices: SendMessageResult["notices"] & {};
  reply(options: ReplyOptions): Promise<SendMessageResult>;
}

/** What a send has settled before its reply: the visitor's message and what is left. */
export interface TakenSend {
  trialId: string;
  userMessage: ChatMessage;
  /** What the device has left of its allowance, this message counted. */
  remaining: number;
  notices: PreparedTrialSend["notices"];
}

/** The reply to a message the crisis check flagged: the caring message already stored. */
export function crisisReply(
  send: TakenSend,
  turn: Awaited<ReturnType<typeof referral>>,
): PreparedTrialSend["reply"] {
  return async (replyOptions) => {
    const aiMessage = toChatMessage(asChatRow(turn.message));
    replyOptions.onToken?.(aiMessage.content);
    return {
      response: aiMessage.content,
      conversationId: send.trialId,
      userMessage: send.userMessage,
      aiMessage,
      // A crisis turn costs the visitor nothing of their allowance (prepare gave it back).
      remaining: send.remaining + 1,
      crisis: { resources: turn.resources },
      notices: send.notices,
    };
  };
}

/**
 * The model's reply, streamed; the message is given back when the visitor left before any of
 * it or the provider failed, and a reply the crisis check flags is replaced by the caring one.
 */
export function modelReply(
  deps: Pick<TrialDeps, "crisis" | "llm" | "log" | "repository" | "timeoutMs">,
  send: TakenSend,
  request: ChatRequest,
): PreparedTrialSend["reply"] {
  const { repository } = deps;
  const { trialId, userMessage, remaining, notices } = send;
  return async (replyOptions) => {
    const { text, failure, clientGone, timedOut } = await streamReply(
      deps.llm,
      request,
      replyOptions,
      deps.timeoutMs,
    );
    if (clientGone) {
      if (text) await repository.add(trialId, [{ sender: "ai", content: text }]);
      else await repository.giveBack(trialId);
      throw new ClientGoneError();
    }
    if (failure !== undefined || timedOut || !text.trim()) {
      deps.log.error({ err: failure, timedOut, empty: !text.trim() }, "The AI provider failed");
      await repository.giveBack(trialId);
      throw new HttpError(502, CHAT_MESSAGES.aiFailure);
    }
    const replyFlag = await deps.crisis.checkReply(text).catch(() => null);
    if (replyFlag) {
      const turn = await referral(deps, trialId, replyFlag, "reply");
      return {
        response: turn.message.content,
        conversationId: trialId,
        userMessage,
        aiMessage: toChatMessage(asChatRow(turn.message)),
        remaining,
        crisis: { resources: turn.resources },
      };
    }
    const [saved] = await repository.add(trialId, [{ sender: "ai", content: text }]);
    if (!saved) throw new Error("The reply was not stored");
    return {
      response: text,
      conversationId: trialId,
      userMessage,
      aiMessage: toChatMessage(asChatRow(saved)),
      remaining,
      notices,
    };
  };
}
