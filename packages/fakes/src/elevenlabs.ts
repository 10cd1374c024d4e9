import { makeMp3Tone } from "./audio.ts";
import { sleep } from "./clock.ts";
import { echoedKey, type FakeHttpServer, sendJson, startFakeHttpServer } from "./http.ts";

export const FAKE_ELEVENLABS_KEY = "el-fake-elevenlabs-key-1234567890";
export const FAKE_VOICES = [
  { voice_id: "voice-rachel", name: "Rachel" },
  { voice_id: "voice-adam", name: "Adam" },
];
export const CLONED_VOICE_ID = "voice-cloned-123";

export interface FakeElevenLabsOptions {
  /** The one key accepted (default FAKE_ELEVENLABS_KEY); "any": every key. */
  validKey?: string;
  /** Wait before the first audio byte of text-to-speech. */
  firstByteDelayMs?: number;
  /** A refused key is quoted back whole in the error (echoedKey): the secrets tests' echo. */
  echoKey?: boolean;
}

export interface FakeElevenLabs extends FakeHttpServer {
  validKey: string;
  echoKey: boolean;
  firstByteDelayMs: number;
  /** The audio every text-to-speech request streams (a real MP3). */
  audio: Buffer;
  /** Each text-to-speech request: the voice id of its path and the text of its body. */
  speech: Array<{ voiceId: string; text: string }>;
  /** Text-to-speech requests whose client went away before the audio was sent (aborts). */
  speechCutShort: number;
}

/**
 * A local server speaking ElevenLabs' API: voices list, instant voice clone, and streamed
 * text to speech (`/v1/text-to-speech/{voice_id}/stream` and the whole-file route) answering a
 * real MP3, its first byte after `firstByteDelayMs`.
 */
export async function startFakeElevenLabs(
  options: FakeElevenLabsOptions = {},
): Promise<FakeElevenLabs> {
  const state = {
    validKey: options.validKey ?? FAKE_ELEVENLABS_KEY,
    firstByteDelayMs: options.firstByteDelayMs ?? 0,
    echoKey: options.echoKey ?? false,
    audio: makeMp3Tone(),
    speech: [] as Array<{ voiceId: string; text: string }>,
    speechCutShort: 0,
  };
  const server = await startFakeHttpServer(async (request, response) => {
    if (state.validKey !== "any" && request.headers["xi-api-key"] !== state.validKey) {
      const key = String(request.headers["xi-api-key"] ?? "");
      return sendJson(response, 401, {
        detail: {
          status: "invalid_api_key",
          message: state.echoKey ? echoedKey(key) : "Invalid API key",
        },
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
    const speech = /^\/v1\/text-to-speech\/([^/]+)(\/stream)?$/.exec(request.path);
    if (request.method === "POST" && speech?.[1]) {
      const body = JSON.parse(request.body.toString("utf8") || "{}") as { text?: string };
      if (!body.text) {
        return sendJson(response, 422, {
          detail: { status: "invalid", message: "text is required" },
        });
      }
      state.speech.push({ voiceId: decodeURIComponent(speech[1]), text: body.text });
      let gone = false;
      response.on("close", () => {
        if (!response.writableFinished) gone = true;
      });
      await sleep(state.firstByteDelayMs);
      if (gone) {
        state.speechCutShort += 1;
        return;
      }
      response.writeHead(200, { "content-type": "audio/mpeg" });
      // In two writes, as a streamed answer arrives.
      const half = Math.floor(state.audio.length / 2);
      response.write(state.audio.subarray(0, half));
      response.end(state.audio.subarray(half));
      return;
    }
    sendJson(response, 404, { detail: "Not Found" });
  });
  return Object.assign(state, server);
}
