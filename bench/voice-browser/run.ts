/// <reference lib="dom" />
// bench/voice-browser: what a fan waits for, in a real browser. Debian's Chromium with a fake
// microphone playing generated utterances (utterances.ts: 20 hesitant ones, a 0.6–1.2 s pause
// after each unfinished phrase, and 20 complete sentences), the built app against stand-in
// providers with fixed latencies (STT 150 ms, LLM first sentence 300 ms, TTS first byte 75 ms);
// the STT stand-in answers the words spoken so far (Whisper-like: the last part ends a sentence).
// The page is instrumented: the microphone's samples (a tap on the same device) give the last
// voiced sample of each utterance; every AudioBufferSourceNode.start gives when the persona's
// audio starts playing; every socket send tells when a turn was committed. The clients run in the
// same run on the same recording (BENCH_CLIENTS, default `eager,new`): `level` = the loudness
// detector with one committed upload per turn (`?vad=level`), `eager` = Silero VAD with eager end
// of turn as before issue 24 (`?turn=eager`), `new` = the same with the hesitation rule
// (decision 0053). Reported: on the complete sentences the time from the last voiced sample to
// the first persona audio, p50/p95; on the hesitant ones the false cut-offs (a turn committed
// before the fan finished) and the persona heard mid-utterance. `npm run build` first;
// `npm run bench:voice-browser -w @twinline/bench`.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  FAKE_ELEVENLABS_KEY,
  FAKE_OPENAI_KEY,
  startFakeElevenLabs,
  startFakeOpenAi,
} from "@twinline/fakes";
import { parseWav } from "../../apps/server/src/providers/stt/wav.ts";
import { signUpFan, uniqueFan } from "../../e2e/support/accounts.ts";
import { launchBrowser } from "../../e2e/support/browser.ts";
import { startServer } from "../../e2e/support/server.ts";
import { percentile } from "../lib/latency.ts";
import { isHesitant, recording, type Timeline, UTTERANCES, wordsAt } from "./utterances.ts";

const LEAD_MS = 8_000;
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 5_500);
const STT_DELAY_MS = 150;

const CLIENTS = {
  level: { query: "?vad=level", label: "loudness, no eager turn" },
  eager: { query: "?turn=eager", label: "Silero, eager turn, before issue 24" },
  new: { query: "", label: "Silero, eager turn, hesitation rule" },
} as const;
type Client = keyof typeof CLIENTS;

interface Recorded {
  /** performance.timeOrigin of the page: its times on the wall clock. */
  origin: number;
  segments: { start: number; end: number }[];
  plays: number[];
  sends: { t: number; kind: string }[];
}

/** Runs in the page before the app: taps the microphone, playback and the socket. */
function instrument() {
  const rec: Recorded = { origin: performance.timeOrigin, segments: [], plays: [], sends: [] };
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
  const hesitantLatencies: number[] = [];
  let cutOffs = 0;
  let heardMidway = 0;
  let hesitant = 0;
  let unanswered = 0;
  for (const [index, segment] of rec.segments.entries()) {
    const utterance = UTTERANCES[index % UTTERANCES.length];
    const next = rec.segments[index + 1]?.start ?? Number.POSITIVE_INFINITY;
    const during = (t: number) => t >= segment.start && t < segment.end;
    const play = rec.plays.find((t) => t > segment.end && t < next);
    if (play === undefined) unanswered += 1;
    if (utterance && isHesitant(utterance)) {
      hesitant += 1;
      if (committed.some(during)) cutOffs += 1;
      if (rec.plays.some(during)) heardMidway += 1;
      if (play !== undefined) hesitantLatencies.push(play - segment.end);
    } else if (play !== undefined) latencies.push(play - segment.end);
  }
  return {
    latencies,
    hesitantLatencies,
    cutOffs,
    heardMidway,
    hesitant,
    unanswered,
    segments: rec.segments.length,
  };
}

async function runClient(
  serverUrl: string,
  wavPath: string,
  mode: Client,
  durationMs: number,
  /** Told when the recording started (wall clock), for the STT stand-in. */
  onRecordingStart: (at: number) => void,
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
    await page.goto(`${serverUrl}/dashboard/call${CLIENTS[mode].query}`);
    await page.getByTestId("call-credits").waitFor();
    await page.getByRole("button", { name: "Start call" }).click();
    const clicked = Date.now();
    // The first utterance starts LEAD_MS into the recording: its first voiced sample anchors
    // the recording's timeline on the wall clock.
    for (;;) {
      const first = await page.evaluate(() => {
        const rec = (window as unknown as { __bench: Recorded }).__bench;
        const start = rec.segments[0]?.start;
        return start === undefined ? null : rec.origin + start;
      });
      if (first !== null) {
        onRecordingStart(first - LEAD_MS);
        break;
      }
      await page.waitForTimeout(100);
    }
    await page.waitForTimeout(Math.max(0, durationMs - (Date.now() - clicked)));
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

/** The neural client's pre-roll: audio kept from before the detector was sure (10 frames). */
const PRE_ROLL_MS = 320;

/**
 * The STT stand-in: the words of the recording in the upload. The utterance is the one under way
 * when the upload's audio began (by the recording's timeline); the words, its parts that begin
 * within the upload's length. An upload that is not a WAV (the level client's) is heard whole.
 */
function sttStandIn(timeline: Timeline) {
  return {
    /** When the client under way started its recording (wall clock). */
    startedAt: Number.NaN,
    /** What it answered, when (wall clock): BENCH_DEBUG prints it. */
    answers: [] as { at: number; text: string }[],
    heard(upload: Buffer, lagMs: number): string {
      if (Number.isNaN(this.startedAt)) return "";
      const elapsed = Date.now() - lagMs - this.startedAt;
      const riff = upload.indexOf("RIFF");
      const wav = riff >= 0 ? parseWav(upload.subarray(riff)) : null;
      let text = wordsAt(timeline, elapsed);
      if (wav) {
        const bytesPerSecond = wav.sampleRate * wav.channels * (wav.bitsPerSample / 8);
        const spokenMs = (wav.data.length / bytesPerSecond) * 1000 - PRE_ROLL_MS;
        // The upload left at least `spokenMs` after its utterance began: the latest utterance
        // begun by then (a slow server only makes the request later).
        const current = timeline.findLast(
          (entry) => (entry.partStarts[0] ?? 0) <= elapsed - spokenMs + 500,
        );
        const first = current?.partStarts[0] ?? 0;
        text = current ? wordsAt([current], first + spokenMs - 100) : text;
      }
      this.answers.push({ at: Date.now(), text });
      return text;
    },
  };
}

/** BENCH_DEBUG: each utterance's sends, plays and STT answers, in ms from its first sample. */
function debug(rec: Recorded, answers: { at: number; text: string }[]) {
  for (const [index, segment] of rec.segments.entries()) {
    const next = rec.segments[index + 1]?.start ?? Number.POSITIVE_INFINITY;
    const near = (t: number) => t >= segment.start - 200 && t < next;
    const rel = (t: number) => Math.round(t - segment.start);
    console.log(
      `#${index} ${Math.round(segment.end - segment.start)} ms:`,
      rec.sends.filter((send) => near(send.t)).map((send) => `${send.kind}@${rel(send.t)}`),
      rec.plays.filter(near).map((t) => `play@${rel(t)}`),
      answers
        .filter((answer) => near(answer.at - rec.origin))
        .map((answer) => `"${answer.text}"@${rel(answer.at - rec.origin)}`),
    );
  }
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "twinline-bench-voice-browser-"));
  const wavPath = join(dir, "fan.wav");
  const { wav, timeline } = await recording(GAP_MS, LEAD_MS);
  await writeFile(wavPath, wav);
  const durationMs = ((wav.length - 44) / 2 / 48_000) * 1000 + 1_000;
  const stt = sttStandIn(timeline);
  const openai = await startFakeOpenAi({
    reply: ["That sounds like a lovely plan.", " Tell me more about it."],
    transcriptionDelayMs: STT_DELAY_MS,
    firstPieceDelayMs: 300,
    transcribe: (upload) => stt.heard(upload, STT_DELAY_MS),
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
    const clients = (process.env.BENCH_CLIENTS ?? "eager,new")
      .split(",")
      .map((name) => name.trim())
      .filter((name): name is Client => name in CLIENTS);
    const results = new Map<Client, ReturnType<typeof analyse>[]>();
    for (let round = 0; round < rounds; round++) {
      for (const mode of clients) {
        const rec = await runClient(server.url, wavPath, mode, durationMs, (at) => {
          stt.startedAt = at;
        });
        results.set(mode, [...(results.get(mode) ?? []), analyse(rec)]);
        if (process.env.BENCH_DEBUG) debug(rec, stt.answers.splice(0));
      }
    }
    console.log(
      `voice-browser: ${UTTERANCES.length} utterances × ${rounds} round(s) per client ` +
        `(${UTTERANCES.filter(isHesitant).length} hesitant, 0.6–1.2 s pauses after unfinished ` +
        `phrases; ${UTTERANCES.filter((u) => !isHesitant(u)).length} complete); ` +
        "stand-ins STT 150 ms, LLM first sentence 300 ms, TTS first byte 75 ms",
    );
    for (const [mode, all] of results) {
      const sum = (pick: (r: ReturnType<typeof analyse>) => number) =>
        all.reduce((n, r) => n + pick(r), 0);
      const latencies = all.flatMap((r) => r.latencies);
      const hesitantLatencies = all.flatMap((r) => r.hesitantLatencies);
      console.log(
        `${mode} (${CLIENTS[mode].label}): complete sentences, last voiced sample → first ` +
          `persona audio p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))} ` +
          `(n=${latencies.length}); hesitant: false cut-offs ${sum((r) => r.cutOffs)}/` +
          `${sum((r) => r.hesitant)}, persona heard mid-utterance ${sum((r) => r.heardMidway)}, ` +
          `answer after the end p50 ${ms(percentile(hesitantLatencies, 50))}; ` +
          `${sum((r) => r.unanswered)} of ${sum((r) => r.segments)} utterances unanswered`,
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
