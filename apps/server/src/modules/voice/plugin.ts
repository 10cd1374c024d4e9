import websocket from "@fastify/websocket";
import { VOICE_MAX_UTTERANCE_BYTES } from "@twinline/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { VoiceSpendLimits } from "../../config.ts";
import { watchSessionEnds } from "../../db/session-events.ts";
import { type Clock, systemClock } from "../../lib/clock.ts";
import type { AiNotices } from "../chat/ai-notice.ts";
import type { CrisisDesk } from "../chat/crisis.ts";
import type { ChatService, PersonaSource } from "../chat/service.ts";
import type { MemoryService } from "../memory/service.ts";
import type { SettingsService } from "../settings/service.ts";
import { createCallCrisis } from "./crisis-turn.ts";
import { createVoiceEngine } from "./engine.ts";
import { createVoiceRepository } from "./repository.ts";
import { voiceRoutes } from "./routes.ts";
import { createVoiceService, type VoiceService } from "./service.ts";
import { voiceSocketRoutes } from "./socket.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Live voice calls: the socket, metering, history. */
    voice: VoiceService;
  }
}

/** The other modules' services the call uses, passed by app.ts (docs/decisions/0097). */
export interface VoiceModuleDeps {
  settings: SettingsService;
  /** The chat's persona, crisis desk, AI notices and turn store: a call is the chat spoken. */
  persona: PersonaSource;
  crisis: CrisisDesk;
  aiNotices: AiNotices;
  chat: Pick<ChatService, "callTurnStore">;
  memory: MemoryService;
}

export interface VoiceModuleOptions extends VoiceModuleDeps {
  /** The metering's clock (tests move a manual one); default the system clock. */
  clock?: Clock;
  /** Provider spend per user, REST and calls (config.ts voiceSpend). */
  spend: VoiceSpendLimits;
}

/** The channel of voice_calls closed anywhere (the migration's trigger). */
const CALL_CLOSED_CHANNEL = "voice_call_closed";

/** Open calls are checked for ones a stopped server left behind every minute (voice clock). */
export const ABANDONED_CALLS_JOB = "voice.abandoned-calls";
const ABANDONED_CALLS_CRON = "* * * * *";

/**
 * The voice call: `/api/voice-call/ws` and the REST routes. Needs providers and accounts
 * registered before it.
 */
export const voiceModule = fp<VoiceModuleOptions>(
  async (app: FastifyInstance, options) => {
    const clock = options.clock ?? systemClock;
    const { settings, persona, memory } = options;
    const repository = createVoiceRepository(app.database.db);
    const engine = createVoiceEngine({
      providers: app.providers,
      settings,
      persona,
      log: app.log,
      onFirstAudio: app.observability.metrics.enabled
        ? app.observability.metrics.voiceFirstAudio
        : undefined,
    });
    const voice = createVoiceService({
      repository,
      engine,
      settings,
      clock,
      log: app.log,
      turns: options.chat.callTurnStore,
      memory,
      onTurn: (userId) => memory.noteActivity(userId),
      crisis: createCallCrisis(options.crisis),
      notices: options.aiNotices,
      authenticate: (token) => app.authenticateToken(token),
      usage: {
        synthesizedCharacters: options.spend.dailySynthesizedCharacters,
        llmCalls: options.spend.dailyLlmCalls,
      },
      utterancesPerMinute: options.spend.callUtterancesPerMinute,
      counters: app.attemptCounters,
    });
    app.decorate("voice", voice);

    // A session's end and a call closed on another instance reach this instance's calls at once.
    const onError = (error: unknown) =>
      app.log.error({ err: error }, "Voice call notification failed");
    const stopSessions = await watchSessionEnds({
      connection: app.database,
      onEnd: (end) => void voice.sessionEnded(end).catch(onError),
      onGap: () => void voice.sessionEnded().catch(onError),
    });
    let stopClosed = async () => {};
    if (app.database.kind === "postgres") {
      const hub = await app.database.notifications();
      stopClosed = await hub.subscribe(CALL_CLOSED_CHANNEL, {
        onNotify: (callId) => {
          if (callId) void voice.closedElsewhere(callId).catch(onError);
        },
        // Missed closes are found at the call's next minute (the charge sees it closed).
        onGap: () => {},
      });
    }

    // Before @fastify/websocket's own preClose (which closes every socket with 1001): each live
    // call hears call_ended and its record is closed while the database is still open.
    app.addHook("preClose", async () => {
      await voice.shutdown();
      await Promise.all([stopSessions(), stopClosed()]);
    });

    await app.register(websocket, { options: { maxPayload: VOICE_MAX_UTTERANCE_BYTES + 1024 } });
    await app.register(voiceSocketRoutes, { voice });
    await app.register(voiceRoutes, { voice, spendPerMinute: options.spend.perMinute });

    // Calls a stopped server left open are closed at boot, then by a job each minute
    // (docs/decisions/0072): one run per occurrence across instances; the pass closes each
    // call in one compare-and-set update (still open), so a retry or a second run is harmless.
    await voice.closeAbandoned();
    app.jobs.define(ABANDONED_CALLS_JOB, () => voice.closeAbandoned(), {
      cron: ABANDONED_CALLS_CRON,
      clock,
      retryLimit: 2,
      retryDelaySeconds: 30,
      expireInSeconds: 5 * 60,
    });
  },
  {
    name: "voice",
    dependencies: ["providers", "accounts", "rate-limit", "jobs"],
  },
);
