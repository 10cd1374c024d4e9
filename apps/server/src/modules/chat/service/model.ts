import type { FastifyBaseLogger } from "fastify";
import type { StreamChatRequest } from "../../../providers/llm/index.ts";
import { type ChatRequest, PASSAGE_LIMIT, REPLY_MAX_TOKENS } from "../prompt.ts";

/** The part of the LLM provider chat needs (providers/llm LlmProvider fits it). */
export interface ChatLlm {
  streamChat(request: StreamChatRequest): AsyncIterable<string>;
}

/** What the persona remembers of a fan (memory/service.ts fits it). */
export interface MemorySource {
  /** The fan's summary and their own earlier words matching `message`, none of `exclude`. */
  recall(
    userId: string,
    message: string,
    exclude: string[],
  ): Promise<{ summary: string | null; recalled: string[] }>;
  /** A conversation moved on: the summary may be refreshed in the background. */
  noteActivity(userId: string): void;
}

/** What the persona knows: the admin's system prompt and the knowledge retrieval. */
export interface PersonaSource {
  systemPrompt(): Promise<string>;
  passages(question: string, limit: number): Promise<string[]>;
}

/** The passages for a message (chat, trial and call alike): retrieval trouble costs the knowledge, not the reply. */
export async function knowledgeFor(
  persona: PersonaSource,
  message: string,
  log: Pick<FastifyBaseLogger, "warn">,
): Promise<string[]> {
  try {
    return await persona.passages(message, PASSAGE_LIMIT);
  } catch (error) {
    log.warn({ err: error }, "Knowledge retrieval failed; answering without passages");
    return [];
  }
}

export interface ReplyOptions {
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
  onToken?: (text: string) => void;
}

/** What the model answered to one request (streamReply). */
export interface StreamedReply {
  /** The reply as far as it came. */
  text: string;
  /** The provider's error, if it failed. */
  failure: unknown;
  /** The client went away (its signal aborted). */
  clientGone: boolean;
  /** The whole reply did not arrive within the timeout. */
  timedOut: boolean;
}

/**
 * Asks the model for a reply to `request`, passing each piece to `onToken` as it streams, within
 * `timeoutMs` and until the client's signal aborts. Never throws: the caller decides what a
 * failure means (the member chat and the anonymous trial share this).
 */
export async function streamReply(
  llm: () => Promise<ChatLlm>,
  request: ChatRequest,
  replyOptions: ReplyOptions,
  timeoutMs: number,
): Promise<StreamedReply> {
  const clientSignal = replyOptions.signal ?? new AbortController().signal;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([clientSignal, timeout]);
  let text = "";
  let failure: unknown;
  try {
    const provider = await llm();
    for await (const piece of provider.streamChat({
      ...request,
      signal,
      maxTokens: REPLY_MAX_TOKENS,
    })) {
      if (signal.aborted) break;
      text += piece;
      replyOptions.onToken?.(piece);
    }
  } catch (error) {
    failure = error;
  }
  return { text, failure, clientGone: clientSignal.aborted, timedOut: timeout.aborted };
}
