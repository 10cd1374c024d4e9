import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { connectVoice } from "../../../test/voice-client.ts";
import {
  createPocketsphinxStt,
  DEFAULT_POCKETSPHINX_BIN,
  DEFAULT_POCKETSPHINX_MODEL_DIR,
  pocketsphinxInstalled,
} from "../../providers/stt/index.ts";
import { createOfflineTts } from "../../providers/tts/offline.ts";

// Speech heard offline: Debian's pocketsphinx and its English model (`apt-get install
// pocketsphinx pocketsphinx-en-us`; .ci/run installs them). The speech is made here by the
// app's own offline voice (eSpeak NG in WebAssembly), a 22 kHz WAV the recogniser gets as
// 16 kHz mono after the in-process conversion.
const installed = pocketsphinxInstalled({
  bin: DEFAULT_POCKETSPHINX_BIN,
  modelDir: DEFAULT_POCKETSPHINX_MODEL_DIR,
});
if (!installed) {
  console.warn(
    "voice.pocketsphinx.test.ts skipped: pocketsphinx_continuous or the pocketsphinx-en-us model " +
      "is not installed (apt-get install pocketsphinx pocketsphinx-en-us)",
  );
}

// eSpeak NG varies its intonation from run to run and the recogniser is rough: these words come
// through every time here ("what is", "music"), others (e.g. "today") only sometimes.
const SAID = "What is the weather like today? I would like to talk about music.";

async function speech(text: string): Promise<Buffer> {
  const spoken = await createOfflineTts().synthesize({
    text,
    voiceId: null,
    signal: new AbortController().signal,
  });
  return spoken.audio;
}

describe.skipIf(!installed)("offline speech to text (pocketsphinx)", () => {
  let t: TestApp;
  let origin: string;
  let said: Buffer;

  beforeAll(async () => {
    said = await speech(SAID);
    t = await createTestApp();
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  it("transcribes a spoken WAV: the words that matter come through", async () => {
    const stt = createPocketsphinxStt({
      bin: DEFAULT_POCKETSPHINX_BIN,
      modelDir: DEFAULT_POCKETSPHINX_MODEL_DIR,
    });
    const heard = await stt.transcribe({ audio: said });
    expect(heard.offline).toBeUndefined();
    // The first and the last word of the sentence; "what is" came through in most runs, but
    // once as "what good" (eSpeak's intonation varies from run to run).
    const words = heard.text.trim().toLowerCase().split(/\s+/);
    expect(words[0]).toBe("what");
    expect(words).toContain("music");
  });

  it("a call with no key hears the fan roughly: a real transcription, and the call says it is rough", async () => {
    const session = await signUp(t);
    const client = await connectVoice(origin, session.token);
    expect(await client.next("call_started")).toMatchObject({ stt: "pocketsphinx" });
    client.socket.send(said);
    const heard = await client.next("transcription", 60_000);
    expect(heard.offline).toBeUndefined();
    expect(heard.text.toLowerCase().split(/\s+/)).toContain("music");
    // The offline responder answers what was heard, in the offline voice.
    await client.next("response", 60_000);
    client.socket.close(1000);
    await client.closed;
  });

  it("a recording it cannot decode (not WAV) gets today's honest notice", async () => {
    const stt = createPocketsphinxStt({
      bin: DEFAULT_POCKETSPHINX_BIN,
      modelDir: DEFAULT_POCKETSPHINX_MODEL_DIR,
    });
    const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(4000)]);
    expect(await stt.transcribe({ audio: webm })).toMatchObject({ offline: true });
  });

  it("the admin's settings say speech to text is offline, with pocketsphinx", async () => {
    const admin = await adminSession(t);
    const response = await call(t, "GET", "/api/admin/settings", { token: admin.token });
    expect(response.json().data.providers).toMatchObject({ stt: "pocketsphinx" });
  });
});
