import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import { toProviderError } from "../errors.ts";
import type { TtsProvider } from "./types.ts";

export interface ElevenLabsOptions {
  apiKey: string;
  /** ELEVENLABS_BASE_URL; unset: api.elevenlabs.io. */
  baseUrl?: string | undefined;
}

export function createElevenLabsClient(options: ElevenLabsOptions): ElevenLabsClient {
  return new ElevenLabsClient({
    apiKey: options.apiKey,
    ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, "") } : {}),
    timeoutInSeconds: 60,
    maxRetries: 1,
  });
}

/** ElevenLabs through its official SDK. Errors come out as ProviderError. */
export function createElevenLabsTts(options: ElevenLabsOptions): TtsProvider {
  const client = createElevenLabsClient(options);
  return {
    mode: "elevenlabs",
    async listVoices() {
      try {
        const { voices } = await client.voices.getAll();
        return voices.map((voice) => ({
          voice_id: voice.voiceId,
          name: voice.name ?? voice.voiceId,
        }));
      } catch (error) {
        throw toProviderError("ElevenLabs", error);
      }
    },
    async cloneVoice({ name, description, sample }) {
      try {
        const created = await client.voices.ivc.create({
          name,
          ...(description ? { description } : {}),
          files: [
            { path: sample.path, filename: sample.filename, contentType: sample.contentType },
          ],
        });
        return created.voiceId;
      } catch (error) {
        throw toProviderError("ElevenLabs", error);
      }
    },
  };
}
