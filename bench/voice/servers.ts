// Runs in its own process, so the load generator and the fake providers do not share the
// server's event loop. Serves the app (its voice socket at /api/voice-call/ws, against the
// providers of OPENAI_BASE_URL and ELEVENLABS_BASE_URL) and a bare relay of the same providers
// (a bare Fastify + @fastify/websocket route, /bare-ws, with the same provider client code:
// transcribe, stream the reply, cut sentences, synthesise each; no auth, database, persona or
// metering). The app's metering clock runs BENCH_CLOCK_SPEED times faster than real time (20:
// three real seconds are a billed minute), so calls of seconds cross several minutes. Prints one JSON
// line { bare, app, users: [{ id, token }] }, then serves; GET /bench/metering answers the
// calls and the ledger.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import websocket from "@fastify/websocket";
import { sql } from "drizzle-orm";
import Fastify from "fastify";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";
import type { Clock } from "../../apps/server/src/lib/clock.ts";
import { SentenceSplitter } from "../../apps/server/src/modules/voice/sentences.ts";
import { createOpenAiLlm } from "../../apps/server/src/providers/llm/openai.ts";
import { createOpenAiStt } from "../../apps/server/src/providers/stt/openai.ts";
import { createElevenLabsTts } from "../../apps/server/src/providers/tts/elevenlabs.ts";
import { browserCsrf, signUpBenchUser } from "../lib/app-api.ts";
import { announceAndServe } from "../lib/spawn-servers.ts";

const USERS = Number(process.env.BENCH_USERS ?? 200);
const SPEED = Number(process.env.BENCH_CLOCK_SPEED ?? 20);
const CREDITS = Number(process.env.BENCH_CREDITS ?? 1000);

// ---- the bare relay ----
const bare = Fastify({ logger: false });
await bare.register(websocket);
const baseURL = process.env.OPENAI_BASE_URL;
const key = "sk-bench-fake-key-0000000000";
const stt = createOpenAiStt({ apiKey: key, baseUrl: baseURL });
const llm = createOpenAiLlm({ apiKey: key, baseUrl: baseURL });
const tts = createElevenLabsTts({ apiKey: "el-bench", baseUrl: process.env.ELEVENLABS_BASE_URL });
bare.get("/bare-ws", { websocket: true }, (socket) => {
  socket.on("message", (data, isBinary) => {
    if (!isBinary) return;
    // A provider's dropped socket (UND_ERR_SOCKET under load) fails this reply, not the process.
    relay(data as Buffer).catch(() => socket.send(JSON.stringify({ type: "audio_complete" })));
  });
  const relay = async (data: Buffer) => {
    const signal = new AbortController().signal;
    const heard = await stt.transcribe({ audio: data as Buffer, signal });
    socket.send(JSON.stringify({ type: "transcription", text: heard.text }));
    const splitter = new SentenceSplitter();
    let sending = Promise.resolve();
    const speak = (sentence: string) => {
      const job = tts.synthesize({ text: sentence, signal });
      job.catch(() => {}); // awaited in order below
      sending = sending.then(async () => socket.send((await job).audio, { binary: true }));
    };
    for await (const piece of llm.streamChat({
      system: "",
      messages: [{ role: "user", content: heard.text }],
      signal,
    })) {
      for (const sentence of splitter.push(piece)) speak(sentence);
    }
    for (const sentence of splitter.flush()) speak(sentence);
    await sending;
    socket.send(JSON.stringify({ type: "audio_complete" }));
  };
});
const bareUrl = await bare.listen({ port: 0, host: "127.0.0.1" });

// ---- the app, its minutes SPEED times faster ----
const origin = Date.now();
const fastClock: Clock = {
  now: () => origin + (Date.now() - origin) * SPEED,
  setTimer(run, ms) {
    const timer = setTimeout(() => void run(), ms / SPEED);
    return () => clearTimeout(timer);
  },
};
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), "twinline-bench-voice-"));
// The bench measures the call's pipeline, not the provider caps: one user says 100+ utterances.
const config = loadConfig({
  VOICE_CALL_UTTERANCES_PER_MINUTE: "1000000",
  VOICE_DAILY_LLM_CALLS: "1000000",
  VOICE_DAILY_TTS_CHARACTERS: "100000000",
  ...process.env,
  DATA_DIR: dataDir,
  // BENCH_LOG_LEVEL (error, warn...): the app's log on stderr, to see why a call failed.
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent",
});
const app = await buildApp({
  config,
  // stdout carries the one JSON line spawnServers reads: the log goes to stderr.
  logger: process.env.BENCH_LOG_LEVEL
    ? { level: process.env.BENCH_LOG_LEVEL, stream: process.stderr }
    : false,
  voiceClock: fastClock,
  authRateLimit: { max: 100_000 },
  register: Object.assign(
    async (scope: typeof app) => {
      scope.get("/bench/metering", async () => {
        const result = (await scope.database.db.execute(
          sql.raw(`select c.id, c.user_id, c.duration_seconds, c.minutes_charged, c.credits_per_minute,
                  c.credits_consumed, c.ended_at is not null as ended,
                  coalesce((select -sum(l.amount) from credit_ledger l where l.source_key like 'call:' || c.id || ':%'), 0)::int as ledger,
                  (select credits from users u where u.id = c.user_id) as balance
           from voice_calls c`),
        )) as unknown as { rows: Record<string, unknown>[] };
        return result.rows;
      });
    },
    { [Symbol.for("skip-override")]: true },
  ),
});
await app.settings.update({ defaultCredits: CREDITS });
const appUrl = await app.listen({ port: 0, host: "127.0.0.1" });

const users: Array<{ id: string; token: string }> = [];
const { headers } = await browserCsrf(app);
for (let i = 0; i < USERS; i++) {
  users.push(
    await signUpBenchUser(app, headers, {
      name: `Bench ${i}`,
      email: `voice-${i}-${Date.now()}@example.com`,
    }),
  );
}

export interface VoiceServersSetup {
  bare: string;
  app: string;
  users: Array<{ id: string; token: string }>;
  credits: number;
}
announceAndServe(
  { bare: bareUrl, app: appUrl, users, credits: CREDITS } satisfies VoiceServersSetup,
  () => Promise.all([bare.close(), app.close()]),
);
