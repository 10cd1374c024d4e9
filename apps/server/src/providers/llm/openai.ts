import OpenAI from "openai";
import { toProviderError } from "../errors.ts";
import type { LlmProvider } from "./types.ts";

export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

export interface OpenAiLlmOptions {
  apiKey: string;
  /** OPENAI_BASE_URL (an OpenAI-compatible server); unset: api.openai.com. */
  baseUrl?: string | undefined;
  /** OPENAI_MODEL; unset: gpt-4o-mini. */
  model?: string | undefined;
  /** Per request, in milliseconds (default 60 s). */
  timeoutMs?: number;
}

/** The OpenAI SDK client every OpenAI-speaking provider uses (LLM, key test, later STT). */
export function createOpenAiClient(options: OpenAiLlmOptions): OpenAI {
  return new OpenAI({
    apiKey: options.apiKey,
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    timeout: options.timeoutMs ?? 60_000,
    // One retry for a dropped connection or a 5xx; a second wait is worse than an error.
    maxRetries: 1,
  });
}

/** Chat completions through the official SDK, at any OpenAI-compatible base URL. */
export function createOpenAiLlm(options: OpenAiLlmOptions): LlmProvider {
  const client = createOpenAiClient(options);
  const model = options.model ?? DEFAULT_OPENAI_MODEL;
  return {
    mode: "openai",
    async listModels() {
      try {
        const ids: string[] = [];
        for await (const entry of client.models.list()) ids.push(entry.id);
        return ids;
      } catch (error) {
        throw toProviderError("OpenAI", error);
      }
    },
    async *streamChat(request) {
      // A refusal (wrong key, unknown model) or no connection: a ProviderError in OpenAI's words.
      // An abort stays what it is.
      const stream = await client.chat.completions
        .create(
          {
            model,
            stream: true,
            messages: [
              { role: "system", content: request.system },
              ...request.messages.map((turn) => ({ role: turn.role, content: turn.content })),
            ],
            ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
          },
          request.signal ? { signal: request.signal } : {},
        )
        .catch((error: unknown) => {
          throw request.signal?.aborted ? error : toProviderError("OpenAI", error);
        });
      try {
        for await (const chunk of stream) {
          const piece = chunk.choices[0]?.delta?.content;
          if (piece) yield piece;
        }
      } finally {
        // A consumer that stops early (break, throw) closes the HTTP response too.
        stream.controller.abort();
      }
    },
  };
}
