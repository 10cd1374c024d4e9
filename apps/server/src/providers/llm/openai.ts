import type OpenAI from "openai";
import { messageIn, ProviderError, toProviderError, unreachable } from "../errors.ts";
import { lazy } from "../lazy.ts";
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

const loadOpenAi = lazy(async () => (await import("openai")).default);

/** An OpenAI SDK error in OpenAI's own words. */
export async function openAiError(error: unknown): Promise<ProviderError> {
  const OpenAiSdk = await loadOpenAi();
  if (error instanceof OpenAiSdk.APIConnectionError) return unreachable("OpenAI", error);
  if (error instanceof OpenAiSdk.APIError) {
    return new ProviderError("OpenAI", messageIn(error.error) ?? error.message, error.status);
  }
  return toProviderError("OpenAI", error);
}

/** The OpenAI SDK client every OpenAI-speaking provider uses (LLM, key test, later STT). */
export async function createOpenAiClient(options: OpenAiLlmOptions): Promise<OpenAI> {
  const OpenAiSdk = await loadOpenAi();
  return new OpenAiSdk({
    apiKey: options.apiKey,
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    timeout: options.timeoutMs ?? 60_000,
    // One retry for a dropped connection or a 5xx; a second wait is worse than an error.
    maxRetries: 1,
  });
}

/** Chat completions through the official SDK, at any OpenAI-compatible base URL. */
export function createOpenAiLlm(options: OpenAiLlmOptions): LlmProvider {
  const client = lazy(() => createOpenAiClient(options));
  const model = options.model ?? DEFAULT_OPENAI_MODEL;
  return {
    mode: "openai",
    async listModels() {
      try {
        const ids: string[] = [];
        for await (const entry of (await client()).models.list()) ids.push(entry.id);
        return ids;
      } catch (error) {
        throw await openAiError(error);
      }
    },
    async *streamChat(request) {
      // A refusal (wrong key, unknown model) or no connection: a ProviderError in OpenAI's words.
      // An abort stays what it is.
      const stream = await (await client()).chat.completions
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
        .catch(async (error: unknown) => {
          throw request.signal?.aborted ? error : await openAiError(error);
        });
      try {
        for await (const chunk of stream) {
          const piece = chunk.choices[0]?.delta?.content;
          if (piece) yield piece;
        }
      } catch (error) {
        // A failure in the middle of the reply: in OpenAI's (safe) words too.
        throw request.signal?.aborted ? error : await openAiError(error);
      } finally {
        // A consumer that stops early (break, throw) closes the HTTP response too.
        stream.controller.abort();
      }
    },
  };
}
