import type { AddressInfo } from "node:net";
import {
  FAKE_ELEVENLABS_KEY,
  FAKE_OPENAI_KEY,
  type FakeElevenLabs,
  type FakeOpenAi,
  startFakeElevenLabs,
  startFakeOpenAi,
} from "@twinline/fakes";
import { createTestApp, type TestApp, type TestAppOptions } from "./create-test-app.ts";

/** The real app with its LLM, speech-to-text and voice on local fakes, listening for sockets. */
export interface VoiceTestApp {
  t: TestApp;
  /** The app's http://127.0.0.1:port, for connectVoice. */
  origin: string;
  openai: FakeOpenAi;
  elevenlabs: FakeElevenLabs;
  /** Closes the app, then the fakes. */
  close(): Promise<void>;
}

/**
 * Starts the fake OpenAI and ElevenLabs servers and the app keyed to them (`options.env` adds to
 * or overrides the provider keys), ready for voice sockets and `inject` alike.
 */
export async function startVoiceTestApp(options: TestAppOptions = {}): Promise<VoiceTestApp> {
  const [openai, elevenlabs] = await Promise.all([startFakeOpenAi(), startFakeElevenLabs()]);
  const closeFakes = async () => {
    await Promise.all([openai.close(), elevenlabs.close()]);
  };
  let t: TestApp | undefined;
  try {
    t = await createTestApp({
      ...options,
      env: {
        OPENAI_API_KEY: FAKE_OPENAI_KEY,
        OPENAI_BASE_URL: openai.baseUrl,
        ELEVENLABS_API_KEY: FAKE_ELEVENLABS_KEY,
        ELEVENLABS_BASE_URL: elevenlabs.origin,
        ...options.env,
      },
    });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    // The SDKs load on first use (ElevenLabs' alone takes seconds on a busy machine): load them
    // here, so a test waits for its call, not for an import.
    await Promise.all([
      t.app.providers.tts().then((tts) => tts.listVoices()),
      t.app.providers.llm().then((llm) => llm.listModels()),
    ]);
  } catch (error) {
    await t?.close();
    await closeFakes();
    throw error;
  }
  const app = t;
  return {
    t: app,
    origin: `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`,
    openai,
    elevenlabs,
    async close() {
      await app.close();
      await closeFakes();
    },
  };
}
