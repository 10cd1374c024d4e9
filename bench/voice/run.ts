// bench/voice: the voice call's first audio and its metering under load, beside a bare relay.
//
// Stand-in providers with fixed latencies (STT 150 ms, the LLM's first sentence 300 ms, the
// TTS's first byte 75 ms) serve both the app and a bare relay of the same providers (see
// servers.ts). Measured on the client: from the moment the utterance has been written to the
// socket to the first reply audio frame read, minus the providers' own 525 ms: what the server
// and the loopback add. Phase 1 sends utterances one at a time, app and bare in turn; phase 2
// holds BENCH_CALLS (200) calls at once, each sending BENCH_TURNS utterances, then checks the
// metering exactly: every call closed once, its ledger entries = ceil(duration/60) × rate =
// credits consumed, and every balance = the sign-up credits minus the call's cost.
import {
  DEFAULT_FAKE_TRANSCRIPTION,
  makeWavTone,
  monotonicNow,
  startFakeElevenLabs,
  startFakeOpenAi,
} from "@twinline/fakes";
import WebSocket from "ws";
import { percentile } from "../lib/latency.ts";
import { spawnServers } from "../lib/spawn-servers.ts";
import type { VoiceServersSetup } from "./servers.ts";

const STT_MS = 150;
const LLM_FIRST_SENTENCE_MS = 300;
const TTS_FIRST_BYTE_MS = 75;
const PROVIDERS_MS = STT_MS + LLM_FIRST_SENTENCE_MS + TTS_FIRST_BYTE_MS;
const RUNS = Number(process.env.BENCH_VOICE_RUNS ?? 100);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const TURNS = Number(process.env.BENCH_TURNS ?? 3);
const WARM_UP = 10;
/** Calls of phase 2 open this far apart, as callers do, for the app and the bare relay alike. */
const RAMP_MS = Number(process.env.BENCH_RAMP_MS ?? 10);
const UTTERANCE = makeWavTone(1);

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** A socket that answers the time of each utterance's first audio frame. */
async function openCall(url: string) {
  const socket = new WebSocket(url);
  let onAudio: (() => void) | undefined;
  let onComplete: (() => void) | undefined;
  let started = false;
  const ready = new Promise<void>((resolve, reject) => {
    socket.on("message", (data, isBinary) => {
      if (isBinary) return onAudio?.();
      const message = JSON.parse(String(data)) as { type: string; message?: string };
      if (message.type === "call_started") started = true;
      if (message.type === "call_started" || url.includes("/bare-ws")) resolve();
      if (message.type === "audio_complete") onComplete?.();
      if (message.type === "error") reject(new Error(message.message));
      if (message.type === "call_ended" || message.type === "error")
        console.error("server said:", String(data));
    });
    socket.once("open", () => {
      if (url.includes("/bare-ws")) resolve();
    });
    socket.once("error", reject);
  });
  await ready;
  const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
  return {
    started,
    closed,
    /** Sends one utterance; answers the time to its first audio, once its reply is complete. */
    async turn(): Promise<number> {
      let sentAt = Number.NaN;
      let firstAudioAt = Number.NaN;
      const complete = new Promise<void>((resolve, reject) => {
        const onClose = (code: number) =>
          reject(new Error(`call closed (${code}) before the reply was complete`));
        socket.once("close", onClose);
        onComplete = () => {
          socket.off("close", onClose);
          resolve();
        };
      });
      onAudio = () => {
        if (Number.isNaN(firstAudioAt)) firstAudioAt = monotonicNow();
      };
      await new Promise<void>((resolve, reject) =>
        socket.send(UTTERANCE, { binary: true }, (error) => {
          sentAt = monotonicNow();
          if (error) reject(error);
          else resolve();
        }),
      );
      await complete;
      return firstAudioAt - sentAt;
    },
    close: () => socket.close(1000),
  };
}

const openai = await startFakeOpenAi({
  validKey: "any",
  reply: ["Hello there, it is so nice to hear from you. ", "How has your day ", "been so far?"],
  firstPieceDelayMs: LLM_FIRST_SENTENCE_MS,
  transcription: DEFAULT_FAKE_TRANSCRIPTION,
  transcriptionDelayMs: STT_MS,
});
const elevenlabs = await startFakeElevenLabs({
  validKey: "any",
  firstByteDelayMs: TTS_FIRST_BYTE_MS,
});
const servers = await spawnServers<VoiceServersSetup>(
  new URL("./servers.ts", import.meta.url).pathname,
  {
    OPENAI_API_KEY: "sk-bench-fake-key-0000000000",
    OPENAI_BASE_URL: openai.baseUrl,
    ELEVENLABS_API_KEY: "el-bench-fake-key",
    ELEVENLABS_BASE_URL: elevenlabs.origin,
    BENCH_USERS: String(CALLS),
  },
);
const { app, bare, users, credits } = servers.urls;
const wsUrl = (base: string, path: string) => `${base.replace(/^http/, "ws")}${path}`;
const appUrl = (token: string) =>
  wsUrl(app, `/api/voice-call/ws?token=${encodeURIComponent(token)}`);

try {
  // ---- phase 1: one utterance at a time, app and bare relay in turn ----
  const first = users[0];
  if (!first) throw new Error("no bench user");
  const appCall = await openCall(appUrl(first.token));
  const bareCall = await openCall(wsUrl(bare, "/bare-ws"));
  const times = { app: [] as number[], bare: [] as number[] };
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const a = await appCall.turn();
    const b = await bareCall.turn();
    if (i >= WARM_UP) {
      times.app.push(a);
      times.bare.push(b);
    }
  }
  appCall.close();
  bareCall.close();
  await appCall.closed;

  const row = (name: string, values: number[]) =>
    `${name.padEnd(10)} first audio p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}; ` +
    `minus the providers' ${PROVIDERS_MS} ms: p50 ${ms(percentile(values, 50) - PROVIDERS_MS)}, p99 ${ms(percentile(values, 99) - PROVIDERS_MS)}`;
  console.log(
    `\nvoice: end of utterance -> first reply audio byte, ${RUNS} runs each (after ${WARM_UP} warm-up)`,
  );
  console.log(row("bare relay", times.bare));
  console.log(row("app", times.app));
  console.log(
    `app over bare relay: p50 ${ms(percentile(times.app, 50) - percentile(times.bare, 50))}, ` +
      `p99 ${ms(percentile(times.app, 99) - percentile(times.bare, 99))}`,
  );

  // ---- phase 2: CALLS concurrent calls ----
  const runConcurrent = async (urlOf: (i: number) => string) => {
    const firsts: number[] = [];
    const started = monotonicNow();
    await Promise.all(
      Array.from({ length: CALLS }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * RAMP_MS));
        const call = await openCall(urlOf(i));
        for (let turn = 0; turn < TURNS; turn++) firsts.push(await call.turn());
        call.close();
        await call.closed;
      }),
    );
    return { firsts, seconds: (monotonicNow() - started) / 1000 };
  };
  const appLoad = await runConcurrent((i) => appUrl(users[i]?.token ?? ""));
  console.log(`\n${CALLS} concurrent calls, ${TURNS} utterances each, opened ${RAMP_MS} ms apart`);
  console.log(
    `app        first audio p50 ${ms(percentile(appLoad.firsts, 50))}, p99 ${ms(percentile(appLoad.firsts, 99))} (${appLoad.seconds.toFixed(1)} s)`,
  );
  const bareLoad = await runConcurrent(() => wsUrl(bare, "/bare-ws"));
  console.log(
    `bare relay first audio p50 ${ms(percentile(bareLoad.firsts, 50))}, p99 ${ms(percentile(bareLoad.firsts, 99))} (${bareLoad.seconds.toFixed(1)} s)`,
  );

  // ---- metering: exact for every call ----
  type MeteredCall = {
    user_id: string;
    duration_seconds: number;
    minutes_charged: number;
    credits_per_minute: number;
    credits_consumed: number;
    ended: boolean;
    ledger: number;
    balance: number;
  };
  // The server closes each record once its socket has closed: wait for the last of them.
  let rows: MeteredCall[] = [];
  for (let i = 0; i < 60; i++) {
    rows = (await (await fetch(`${app}/bench/metering`)).json()) as MeteredCall[];
    if (rows.every((call) => call.ended)) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const open = rows.filter((call) => !call.ended).length;
  const spentBy = new Map<string, number>();
  let wrong = 0;
  let minutes = 0;
  for (const call of rows) {
    const cost = Math.ceil(call.duration_seconds / 60) * call.credits_per_minute;
    if (cost !== call.ledger || cost !== call.credits_consumed) {
      wrong += 1;
      if (wrong <= 3) console.error("metering differs:", call);
    }
    minutes += call.minutes_charged;
    spentBy.set(call.user_id, (spentBy.get(call.user_id) ?? 0) + call.ledger);
  }
  const balanceWrong = rows.filter(
    (call) => call.balance !== credits - (spentBy.get(call.user_id) ?? 0),
  ).length;
  console.log(
    `metering: ${rows.length} calls, ${minutes} billed minutes (clock x${process.env.BENCH_CLOCK_SPEED ?? 20}); ` +
      `calls left open: ${open}; calls whose duration-based cost, ledger sum and credits consumed ` +
      `disagree: ${wrong}; balances off: ${balanceWrong}`,
  );
  if (open > 0 || wrong > 0 || balanceWrong > 0) process.exitCode = 1;
} finally {
  await servers.stop();
  await Promise.all([openai.close(), elevenlabs.close()]);
}
