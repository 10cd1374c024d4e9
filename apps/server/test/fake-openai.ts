import type { ServerResponse } from "node:http";
import {
  type FakeHttpServer,
  type RecordedRequest,
  sendJson,
  startFakeHttpServer,
} from "@twinline/fakes";

export const FAKE_OPENAI_KEY = "sk-test-fake-openai-key-123456";
export const FAKE_OPENAI_MODELS = ["gpt-4o-mini", "gpt-4o"];

export interface FakeOpenAi extends FakeHttpServer {
  /** OPENAI_BASE_URL for the SDK: origin + /v1 */
  baseUrl: string;
  /** The answer streamed by chat completions, in these pieces. */
  reply: string[];
  /** When set, the stream stops after the first piece and waits (abort tests). */
  hang: boolean;
  /** Resolves when the client of a hanging stream closed its connection. */
  clientClosed: Promise<void>;
}

function unauthorized(response: ServerResponse, key: string) {
  sendJson(response, 401, {
    error: {
      message: `Incorrect API key provided: ${key.slice(0, 3)}*****${key.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      type: "invalid_request_error",
      param: null,
      code: "invalid_api_key",
    },
  });
}

const bearer = (request: RecordedRequest) =>
  /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1] ?? "";

/** A local server speaking the OpenAI API: models list and chat completions (SSE or JSON). */
export async function startFakeOpenAi(validKey = FAKE_OPENAI_KEY): Promise<FakeOpenAi> {
  let markClosed: () => void = () => {};
  const state = {
    reply: ["Hello", " from", " the", " fake", " model."],
    hang: false,
    clientClosed: new Promise<void>((resolve) => {
      markClosed = resolve;
    }),
  };
  const server = await startFakeHttpServer((request, response, raw) => {
    const key = bearer(request);
    if (key !== validKey) return unauthorized(response, key);
    if (request.method === "GET" && request.path === "/v1/models") {
      return sendJson(response, 200, {
        object: "list",
        data: FAKE_OPENAI_MODELS.map((id) => ({
          id,
          object: "model",
          created: 0,
          owned_by: "test",
        })),
      });
    }
    if (request.method === "POST" && request.path === "/v1/chat/completions") {
      const body = JSON.parse(request.body.toString("utf8")) as { stream?: boolean; model: string };
      const base = { id: "chatcmpl-1", created: 0, model: body.model };
      if (!body.stream) {
        return sendJson(response, 200, {
          ...base,
          object: "chat.completion",
          choices: [
            {
              index: 0,
              finish_reason: "stop",
              message: { role: "assistant", content: state.reply.join("") },
            },
          ],
        });
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.write(chunk({ role: "assistant", content: "" }));
      if (state.hang) {
        response.write(chunk({ content: state.reply[0] }));
        raw.socket.on("close", () => markClosed());
        return;
      }
      for (const piece of state.reply) response.write(chunk({ content: piece }));
      response.write(chunk({}, "stop"));
      response.end("data: [DONE]\n\n");
      return;
    }
    sendJson(response, 404, { error: { message: "Not found", type: "invalid_request_error" } });
  });
  // The handler reads `state`, which is the returned object: tests change reply and hang on it.
  return Object.assign(state, server, { baseUrl: `${server.origin}/v1` });
}
