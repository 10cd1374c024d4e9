import type { ServerResponse } from "node:http";
import { monotonicNow, sleep } from "./clock.ts";
import {
  echoedKey,
  type FakeHttpServer,
  type RecordedRequest,
  sendJson,
  startFakeHttpServer,
} from "./http.ts";

export const FAKE_OPENAI_KEY = "sk-test-fake-openai-key-123456";
export const FAKE_OPENAI_MODELS = ["gpt-4o-mini", "gpt-4o"];
export const DEFAULT_FAKE_REPLY = ["Hello", " from", " the", " fake", " model."];
export const DEFAULT_FAKE_TRANSCRIPTION = "Hello, can you hear me?";

export interface FakeOpenAiOptions {
  /** The one key accepted (default FAKE_OPENAI_KEY); "any": every key. */
  validKey?: string;
  /** The chat completion's pieces (default DEFAULT_FAKE_REPLY). */
  reply?: string[];
  /** Wait before the first piece: the model's time to first token. */
  firstPieceDelayMs?: number;
  /** Wait between pieces. */
  gapMs?: number;
  /** What /v1/audio/transcriptions answers (default DEFAULT_FAKE_TRANSCRIPTION). */
  transcription?: string;
  /** Wait before the transcription answers: the STT's own time. */
  transcriptionDelayMs?: number;
  /**
   * Answers a transcription from its upload (the request's multipart body), read after the
   * delay; undefined: `transcription`. bench/voice-browser hears the words spoken so far.
   */
  transcribe?: (upload: Buffer) => string | undefined;
  /** What /v1/models lists. */
  models?: string[];
  /** A refused key is quoted back whole in the error (echoedKey): the secrets tests' echo. */
  echoKey?: boolean;
  /**
   * What /v1/moderations flags, by the exact input: the categories set true (e.g.
   * ["self-harm", "self-harm/intent"]). Any other input is flagged for nothing.
   */
  moderationFlags?: Record<string, string[]>;
  /** /v1/moderations answers 500: the provider is down. */
  moderationFails?: boolean;
}

/** Every category omni-moderation-latest answers, each false unless flagged. */
export const MODERATION_CATEGORIES = [
  "harassment",
  "harassment/threatening",
  "hate",
  "hate/threatening",
  "illicit",
  "illicit/violent",
  "self-harm",
  "self-harm/intent",
  "self-harm/instructions",
  "sexual",
  "sexual/minors",
  "violence",
  "violence/graphic",
] as const;

/**
 * A local server speaking the OpenAI API: models list, chat completions (SSE or JSON) and
 * audio transcriptions (multipart). Every option is a field of the returned object, so a test
 * changes the reply, the latencies or `hang` between requests.
 */
export interface FakeOpenAi extends FakeHttpServer, Required<Omit<FakeOpenAiOptions, "validKey">> {
  /** OPENAI_BASE_URL for the SDK: origin + /v1 */
  baseUrl: string;
  validKey: string;
  /** When set, the stream stops after the first piece and waits (abort tests). */
  hang: boolean;
  /** Resolves when the client of a hanging stream closed its connection. */
  clientClosed: Promise<void>;
  /** Completions whose client went away before the last piece (barge-in, aborts). */
  streamsCutShort: number;
  /** When the latest completion's first piece was written (monotonicNow). */
  firstTokenAt(): number;
  /** The `model` field of each transcription request, in order. */
  transcriptionModels: string[];
  /** The input of each moderation request, in order. */
  moderationInputs: string[];
}

function unauthorized(response: ServerResponse, key: string, echo: boolean) {
  sendJson(response, 401, {
    error: {
      message: echo
        ? echoedKey(key)
        : `Incorrect API key provided: ${key.slice(0, 3)}*****${key.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      type: "invalid_request_error",
      param: null,
      code: "invalid_api_key",
    },
  });
}

const bearer = (request: RecordedRequest) =>
  /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1] ?? "";

/** A multipart form's text field (enough for the SDK's own encoding). */
function formField(body: Buffer, name: string): string | undefined {
  const text = body.toString("latin1");
  const match = new RegExp(`name="${name}"\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n([^\\r]*)\\r\\n`).exec(
    text,
  );
  return match?.[1];
}

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  let markClosed: () => void = () => {};
  let firstTokenAt = Number.NaN;
  const state = {
    validKey: options.validKey ?? FAKE_OPENAI_KEY,
    reply: options.reply ?? [...DEFAULT_FAKE_REPLY],
    firstPieceDelayMs: options.firstPieceDelayMs ?? 0,
    gapMs: options.gapMs ?? 0,
    transcription: options.transcription ?? DEFAULT_FAKE_TRANSCRIPTION,
    transcriptionDelayMs: options.transcriptionDelayMs ?? 0,
    transcribe: options.transcribe ?? ((): string | undefined => undefined),
    models: options.models ?? FAKE_OPENAI_MODELS,
    echoKey: options.echoKey ?? false,
    moderationFlags: options.moderationFlags ?? {},
    moderationFails: options.moderationFails ?? false,
    moderationInputs: [] as string[],
    hang: false,
    streamsCutShort: 0,
    transcriptionModels: [] as string[],
    clientClosed: new Promise<void>((resolve) => {
      markClosed = resolve;
    }),
    firstTokenAt: () => firstTokenAt,
  };
  const server = await startFakeHttpServer(async (request, response) => {
    const key = bearer(request);
    if (state.validKey !== "any" && key !== state.validKey)
      return unauthorized(response, key, state.echoKey);
    if (request.method === "GET" && request.path === "/v1/models") {
      return sendJson(response, 200, {
        object: "list",
        data: state.models.map((id) => ({ id, object: "model", created: 0, owned_by: "test" })),
      });
    }
    if (request.method === "POST" && request.path === "/v1/audio/transcriptions") {
      const type = String(request.headers["content-type"] ?? "");
      const model = formField(request.body, "model");
      if (
        !type.startsWith("multipart/form-data") ||
        !/name="file"/.test(request.body.toString("latin1")) ||
        !model
      ) {
        return sendJson(response, 400, {
          error: { message: "file and model are required", type: "invalid_request_error" },
        });
      }
      state.transcriptionModels.push(model);
      await sleep(state.transcriptionDelayMs);
      return sendJson(response, 200, {
        text: state.transcribe(request.body) ?? state.transcription,
      });
    }
    if (request.method === "POST" && request.path === "/v1/moderations") {
      const body = JSON.parse(request.body.toString("utf8")) as { input: string; model?: string };
      state.moderationInputs.push(body.input);
      if (state.moderationFails) {
        return sendJson(response, 500, {
          error: { message: "The server had an error", type: "server_error" },
        });
      }
      const flagged = state.moderationFlags[body.input] ?? [];
      const categories = Object.fromEntries(
        MODERATION_CATEGORIES.map((name) => [name, flagged.includes(name)]),
      );
      const scores = Object.fromEntries(
        MODERATION_CATEGORIES.map((name) => [name, flagged.includes(name) ? 0.97 : 0.0001]),
      );
      return sendJson(response, 200, {
        id: `modr-${state.moderationInputs.length}`,
        model: body.model ?? "omni-moderation-latest",
        results: [{ flagged: flagged.length > 0, categories, category_scores: scores }],
      });
    }
    if (request.method === "POST" && request.path === "/v1/chat/completions") {
      const body = JSON.parse(request.body.toString("utf8")) as { stream?: boolean; model: string };
      const base = { id: "chatcmpl-1", created: 0, model: body.model };
      const reply = state.reply;
      if (!body.stream) {
        await sleep(state.firstPieceDelayMs);
        return sendJson(response, 200, {
          ...base,
          object: "chat.completion",
          choices: [
            {
              index: 0,
              finish_reason: "stop",
              message: { role: "assistant", content: reply.join("") },
            },
          ],
        });
      }
      let gone = false;
      response.on("close", () => {
        if (!response.writableFinished) gone = true;
      });
      response.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.write(chunk({ role: "assistant", content: "" }));
      await sleep(state.firstPieceDelayMs);
      if (state.hang) {
        firstTokenAt = monotonicNow();
        response.write(chunk({ content: reply[0] }));
        response.on("close", () => markClosed());
        return;
      }
      for (const [index, piece] of reply.entries()) {
        if (gone || response.destroyed) {
          state.streamsCutShort += 1;
          return;
        }
        if (index === 0) firstTokenAt = monotonicNow();
        response.write(chunk({ content: piece }));
        if (index < reply.length - 1) await sleep(state.gapMs);
      }
      response.write(chunk({}, "stop"));
      response.end("data: [DONE]\n\n");
      return;
    }
    sendJson(response, 404, { error: { message: "Not found", type: "invalid_request_error" } });
  });
  // The handler reads `state`, which is the returned object: tests change it between requests.
  return Object.assign(state, server, { baseUrl: `${server.origin}/v1` });
}
