import { type FakeHttpServer, sendJson, startFakeHttpServer } from "@twinline/fakes";

export const FAKE_STRIPE_KEY = "sk_test_fake_stripe_key_1234567890";
export const FAKE_ELEVENLABS_KEY = "el-fake-elevenlabs-key-1234567890";
export const FAKE_VOICES = [
  { voice_id: "voice-rachel", name: "Rachel" },
  { voice_id: "voice-adam", name: "Adam" },
];
export const CLONED_VOICE_ID = "voice-cloned-123";

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

/** A local server speaking ElevenLabs' API: voices list and instant voice clone. */
export function startFakeElevenLabs(validKey = FAKE_ELEVENLABS_KEY): Promise<FakeHttpServer> {
  return startFakeHttpServer((request, response) => {
    if (request.headers["xi-api-key"] !== validKey) {
      return sendJson(response, 401, {
        detail: { status: "invalid_api_key", message: "Invalid API key" },
      });
    }
    if (request.method === "GET" && request.path === "/v1/voices") {
      return sendJson(response, 200, {
        voices: FAKE_VOICES.map((voice) => ({ ...voice, category: "premade" })),
      });
    }
    if (request.method === "POST" && request.path === "/v1/voices/add") {
      const type = String(request.headers["content-type"] ?? "");
      const body = request.body.toString("latin1");
      if (
        !type.startsWith("multipart/form-data") ||
        !/name="files"/.test(body) ||
        !/name="name"/.test(body)
      ) {
        return sendJson(response, 422, {
          detail: { status: "invalid", message: "files and name are required" },
        });
      }
      return sendJson(response, 200, { voice_id: CLONED_VOICE_ID, requires_verification: false });
    }
    sendJson(response, 404, { detail: "Not Found" });
  });
}
