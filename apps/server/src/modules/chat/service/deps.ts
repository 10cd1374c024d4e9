import { CHAT_MESSAGES, type ChatMessage, type SendMessageResult } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { UserRow } from "../../../db/schema/index.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { SettingsService } from "../../settings/service.ts";
import { isSubscribedAccount } from "../../users/subscription-state.ts";
import type { AiNotices } from "../ai-notice.ts";
import type { CrisisDesk } from "../crisis.ts";
import type { ChatRequest } from "../prompt.ts";
import type { ChatRepository } from "../repository.ts";
import type { ChatLlm, MemorySource, PersonaSource } from "./model.ts";

export interface ChatServiceOptions {
  repository: ChatRepository;
  settings: Pick<SettingsService, "get">;
  /** The LLM in force for this call (stored key, environment, else offline). */
  llm: () => Promise<ChatLlm>;
  persona: PersonaSource;
  /** Long-term memory; absent: the persona remembers only the history window. */
  memory?: MemorySource;
  /** Told of each saved reply (the push notification of a reply while the fan is away). */
  onReplySaved?: (userId: string, conversationId: string, messageId: string) => void;
  /** The whole reply must arrive within this (default 60 s); else 502. */
  providerTimeoutMs?: number;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** The AI notice and break reminders (ai-notice.ts); absent: none are given (unit tests only). */
  notices?: Pick<AiNotices, "forChatMessage">;
  /** The crisis check before the model (issue 25); absent: none (unit setups only). */
  crisis?: CrisisDesk;
}

export const DEFAULT_PROVIDER_TIMEOUT_MS = 60_000;

/** The chat service's options with their defaults filled in: what each use case is given. */
export type ChatDeps = ChatServiceOptions & { now: () => Date; providerTimeoutMs: number };

export function chatDeps(options: ChatServiceOptions): ChatDeps {
  return {
    ...options,
    now: options.now ?? (() => new Date()),
    providerTimeoutMs: options.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
  };
}

/** A message taken, counted and saved, whose reply is still to come. */
export interface PreparedSend {
  user: UserRow;
  day: string;
  /** Whether the message was counted against today's free messages. */
  counted: boolean;
  remaining: number | "unlimited";
  conversationId: string;
  userMessage: ChatMessage;
  /** Product messages given with this message (the AI notice, a break reminder). */
  notices: ChatMessage[];
  request: ChatRequest;
}

/** A message the crisis check flagged: answered with the caring message, nothing counted. */
export interface CrisisSend {
  crisis: SendMessageResult;
}

export const notFound = () => new HttpError(404, CHAT_MESSAGES.conversationNotFound);

/** The account row the request loaded says it (no read of the subscriptions per message). */
export function isSubscriber(deps: Pick<ChatDeps, "now">, user: UserRow): boolean {
  return isSubscribedAccount(user, deps.now());
}

/** Gives back the free message a send counted (its reply failed or was replaced). */
export async function giveBack(
  deps: Pick<ChatDeps, "repository" | "log">,
  prepared: Pick<PreparedSend, "user" | "day" | "counted">,
): Promise<void> {
  if (!prepared.counted) return;
  try {
    await deps.repository.giveBackDailyMessage(prepared.user.id, prepared.day);
  } catch (error) {
    deps.log.error({ err: error }, "Could not give back a free message");
  }
}
