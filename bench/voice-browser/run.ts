/// <reference lib="dom" />
// bench/voice-browser: what a fan waits for, in a real browser. Debian's Chromium with a fake
// microphone playing generated utterances (utterances.ts: half with a 300–600 ms pause
// mid-sentence), the built app against stand-in providers with fixed latencies (STT 150 ms,
// LLM first sentence 300 ms, TTS first byte 75 ms). The page is instrumented: the microphone's
// samples (a tap on the same device) give the last voiced sample of each utterance; every
// AudioBufferSourceNode.start gives when the persona's audio starts playing; every socket send
// tells when a turn was committed. Both clients run in the same run on the same recording:
// `old` = the loudness detector with one committed upload per turn (`?vad=level`), `new` =
// Silero VAD with eager end of turn. Reported: the time from the last voiced sample to the first
// persona audio, p50/p95, and the false cut-offs (a turn committed before the fan finished) on
// the utterances with a pause. `npm run build` first; `npm run bench:voice-browser -w @twinline/bench`.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  FAKE_ELEVENLABS_KEY,
  FAKE_OPENAI_KEY,
  startFakeElevenLabs,
  startFakeOpenAi,
} from "@twinline/fakes";
import { signUpFan, uniqueFan } from "../../e2e/support/accounts.ts";
import { launchBrowser } from "../../e2e/support/browser.ts";
import { startServer } from "../../e2e/support/server.ts";
import { percentile } from "../lib/latency.ts";
import { recording, UTTERANCES } from "./utterances.ts";

const LEAD_MS = 8_000;
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 5_500);

interface Recorded {
  segments: { start: number; end: number }[];
  plays: number[];
  sends: { t: number; kind: string }[];
}

/** Runs in the page before the app: taps the microphone, playback and the socket. */
function instrument() {
  const rec: Recorded = { segments: [], plays: [], sends: [] };
  (window as unknown as { __bench: Recorded }).__bench = rec;
  const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  let tapped = false;
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    const stream = await getUserMedia(constraints);
    if (!tapped) {
      tapped = true;
      const raw = await getUserMedia({
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      });
      const context = new AudioContext();
      void context.resume();
      const source = context.createMediaStreamSource(raw);
      const node = context.createScriptProcessor(256, 1, 1);
      let last = 0;
      node.onaudioprocess = (event) => {
        const data = event.inputBuffer.getChannelData(0);
        let peak = 0;
        for (let i = 0; i < data.length; i++) peak = Math.max(peak, Math.abs(data[i] ?? 0));
        if (peak < 0.02) return;
        const now = performance.now();
        const current = rec.segments.at(-1);
        if (!current || now - last > 1_500) rec.segments.push({ start: now, end: now });
        else current.end = now;
        last = now;
      };
      source.connect(node);
      node.connect(context.destination);
    }
    return stream;
  };
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (this: AudioBufferSourceNode, ...args) {
    const when = typeof args[0] === "number" ? args[0] : 0;
    const delay = Math.max(0, when - this.context.currentTime) * 1000;
    rec.plays.push(performance.now() + delay);
    return start.apply(this, args as Parameters<typeof start>);
  } as typeof start;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data) {
    let kind = "binary";
    if (typeof data === "string") {
      try {
        kind = (JSON.parse(data) as { type: string }).type;
      } catch {
        kind = "text";
      }
    }
    rec.sends.push({ t: performance.now(), kind });
    return send.call(this, data);
  } as typeof send;
}

/** Commit times: an upload with no candidate before it (old client), or a `commit` (new). */
function commits(sends: Recorded["sends"]): number[] {
  const out: number[] = [];
  for (const [index, send] of sends.entries()) {
    if (send.kind === "commit") out.push(send.t);
    if (send.kind === "binary" && sends[index - 1]?.kind !== "candidate") out.push(send.t);
  }
  return out;
}

function analyse(rec: Recorded) {
  const committed = commits(rec.sends);
  const latencies: number[] = [];
  let cutOffs = 0;
  let paused = 0;
  let unanswered = 0;
  for (const [index, segment] of rec.segments.entries()) {
    const utterance = UTTERANCES[index % UTTERANCES.length];
    const next = rec.segments[index + 1]?.start ?? Number.POSITIVE_INFINITY;
    const early = committed.some((t) => t >= segment.start && t < segment.end);
    if (utterance && utterance.pauseMs > 0) {
      paused += 1;
      if (early) cutOffs += 1;
    }
    const play = rec.plays.find((t) => t > segment.end && t < next);
    if (play === undefined) unanswered += 1;
    else latencies.push(play - segment.end);
  }
  return { latencies, cutOffs, paused, unanswered, segments: rec.segments.length };
}

async function runClient(
  serverUrl: string,
  wavPath: string,
  mode: "old" | "new",
  durationMs: number,
) {
  const browser = await launchBrowser({
    args: [
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${wavPath}`,
      "--autoplay-policy=no-user-gesture-required",
    ],
    viewport: { width: 390, height: 800 },
    contextOptions: { permissions: ["microphone"] },
    initScript: instrument,
  });
  try {
    const page = await browser.newPage();
    await signUpFan(page, serverUrl, uniqueFan(`bench-${mode}`, "Bench Fan"));
    await page.goto(`${serverUrl}/dashboard/call${mode === "old" ? "?vad=level" : ""}`);
    await page.getByTestId("call-credits").waitFor();
    await page.getByRole("button", { name: "Start call" }).click();
    await page.waitForTimeout(durationMs);
    const rec = (await page.evaluate(
      () => (window as unknown as { __bench: Recorded }).__bench,
    )) as Recorded;
    await page.getByRole("button", { name: "Hang up" }).click();
    return rec;
  } finally {
    await browser.close();
  }
}

const ms = (value: number) => `${Math.round(value)} ms`;

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "twinline-bench-voice-browser-"));
  const wavPath = join(dir, "fan.wav");
  const wav = await recording(GAP_MS, LEAD_MS);
  await writeFile(wavPath, wav);
  const durationMs = ((wav.length - 44) / 2 / 48_000) * 1000 + 1_000;
  const openai = await startFakeOpenAi({
    transcription: "I was thinking about going to the beach tomorrow.",
    reply: ["That sounds like a lovely plan.", " Tell me more about it."],
    transcriptionDelayMs: 150,
    firstPieceDelayMs: 300,
  });
  const elevenlabs = await startFakeElevenLabs({ firstByteDelayMs: 75 });
  const server = await startServer({
    // A fresh database's migrations take long on a loaded machine.
    healthTimeoutMs: 120_000,
    env: {
      OPENAI_API_KEY: FAKE_OPENAI_KEY,
      OPENAI_BASE_URL: openai.baseUrl,
      ELEVENLABS_API_KEY: FAKE_ELEVENLABS_KEY,
      ELEVENLABS_BASE_URL: elevenlabs.origin,
    },
  });
  try {
    const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
    const results: Record<"old" | "new", ReturnType<typeof analyse>[]> = { old: [], new: [] };
    for (let round = 0; round < rounds; round++) {
      for (const mode of ["old", "new"] as const) {
        results[mode].push(analyse(await runClient(server.url, wavPath, mode, durationMs)));
      }
    }
    console.log(
      `voice-browser: ${UTTERANCES.length} utterances × ${rounds} round(s) per client, ` +
        `${UTTERANCES.filter((u) => u.pauseMs > 0).length} with a 300–600 ms pause; ` +
        "stand-ins STT 150 ms, LLM first sentence 300 ms, TTS first byte 75 ms",
    );
    for (const mode of ["old", "new"] as const) {
      const all = results[mode];
      const latencies = all.flatMap((r) => r.latencies);
      const cut = all.reduce((n, r) => n + r.cutOffs, 0);
      const paused = all.reduce((n, r) => n + r.paused, 0);
      const unanswered = all.reduce((n, r) => n + r.unanswered, 0);
      const segments = all.reduce((n, r) => n + r.segments, 0);
      console.log(
        `${mode === "old" ? "old client (loudness, no eager turn)" : "new client (Silero, eager turn)"}: ` +
          `last voiced sample → first persona audio p50 ${ms(percentile(latencies, 50))}, ` +
          `p95 ${ms(percentile(latencies, 95))} (n=${latencies.length}); ` +
          `false cut-offs ${cut}/${paused} paused utterances; ` +
          `${unanswered} of ${segments} utterances unanswered`,
      );
    }
  } finally {
    await server.stop();
    await Promise.all([openai.close(), elevenlabs.close()]);
    await rm(dir, { recursive: true, force: true });
  }
  process.exit(0);
}

await main();
