import {
  type FakeHttpServer,
  type FakeOpenAi,
  sendJson,
  startFakeHttpServer,
} from "@twinline/fakes";

// The fake OpenAI and ElevenLabs servers live in packages/fakes (@twinline/fakes).

export interface SentChatCompletion {
  messages: Array<{ role: string; content: string }>;
}

/** The chat completions the fake OpenAI received (the SDK's own requests), oldest first. */
export function sentChatCompletions(openai: FakeOpenAi): SentChatCompletion[] {
  return openai.requests
    .filter((request) => request.path === "/v1/chat/completions")
    .map((request) => JSON.parse(request.body.toString()) as SentChatCompletion);
}

export const FAKE_STRIPE_KEY = "sk_test_fake_stripe_key_1234567890";

/** A local server speaking Stripe's API: GET /v1/balance with a Bearer key. */
export function startFakeStripe(validKey = FAKE_STRIPE_KEY): Promise<FakeHttpServer> {
  return startFakeHttpServer((request, response) => {
    const key = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1] ?? "";
    if (key !== validKey) {
      return sendJson(response, 401, {
        error: {
          message: `Invalid API Key provided: ${key.slice(0, 8)}********${key.slice(-4)}`,
          type: "invalid_request_error",
        },
      });
    }
    if (request.method === "GET" && request.path === "/v1/balance") {
      return sendJson(response, 200, {
        object: "balance",
        available: [{ amount: 1234, currency: "usd", source_types: { card: 1234 } }],
        pending: [],
        livemode: false,
      });
    }
    sendJson(response, 404, {
      error: { message: "Unrecognized request URL", type: "invalid_request_error" },
    });
  });
}
