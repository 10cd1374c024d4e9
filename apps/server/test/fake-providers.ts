import type { FakeOpenAi } from "@twinline/fakes";

// The fake OpenAI, ElevenLabs and Stripe servers live in packages/fakes (@twinline/fakes).

export interface SentChatCompletion {
  messages: Array<{ role: string; content: string }>;
}

/** The chat completions the fake OpenAI received (the SDK's own requests), oldest first. */
export function sentChatCompletions(openai: FakeOpenAi): SentChatCompletion[] {
  return openai.requests
    .filter((request) => request.path === "/v1/chat/completions")
    .map((request) => JSON.parse(request.body.toString()) as SentChatCompletion);
}
