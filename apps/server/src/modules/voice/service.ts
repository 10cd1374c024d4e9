import {
  type CheckCreditsResponse,
  type PublicSettings,
  VOICE_CLOSE_CODES,
  VOICE_MESSAGES,
  VOICE_RESUME_GRACE_MS,
  type VoiceCallRecord,
} from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { ChatMessageRow, UserRow } from "../../db/schema/index.ts";
import type { SessionEnd } from "../../db/session-events.ts";
import { ageRefusal } from "../../lib/age-gate.ts";
import type { Clock } from "../../lib/clock.ts";
import { pagination } from "../../lib/paging.ts";
import { HttpError } from "../../plugins/errors.ts";
import type { AttemptCounters } from "../../plugins/rate-limit.ts";
import type { SynthesizedAudio } from "../../providers/tts/index.ts";
import type { AiNotices } from "../chat/ai-notice.ts";
import type { MemorySource } from "../chat/service.ts";
import type { SettingsService } from "../settings/service.ts";
import { CallNotices } from "./call-notices.ts";
import { type CallTurnStore, DatabaseCallTurns } from "./call-turns.ts";
import type { CallCrisis } from "./crisis-turn.ts";
import { rememberingEngine, type VoiceEngine } from "./engine.ts";
import { CallMeter } from "./metering.ts";
import { type CallChannel, CallConversation } from "./pipeline.ts";
import type {
  UsageAmount,
  VoiceCallEndReason,
  VoiceCallRow,
  VoiceRepository,
  VoiceUsageLimits,
} from "./repository.ts";
import { cappedEngine, utteranceRate } from "./spend.ts";

/** How late a live call's next minute may be before the sweep takes it for abandoned. */
export const ABANDONED_GRACE_MS = 30_000;

export function voiceEnabled(settings: PublicSettings): boolean {
  return settings.enableVoiceConversation && settings.aiProfile.enableVoiceConversation;
}

export function toCallRecord(row: VoiceCallRow, now: number): VoiceCallRecord {
  const live = row.endedAt === null;
  return {
    _id: row.id,
    createdAt: row.createdAt.toISOString(),
    duration: live
      ? Math.max(0, Math.round((now - row.startedAt.getTime()) / 1000))
      : row.durationSeconds,
    startTime: row.startedAt.toISOString(),
    endTime: row.endedAt ? row.endedAt.toISOString() : null,
    creditsConsumed: row.creditsConsumed,
  };
}

/** How a socket's side of a live call is driven (socket.ts). */
export interface CallSocket extends CallChannel {
  close(code: number): void;
}

export interface EndOptions {
  /** Sent as call_ended before the socket closes; absent: the socket is already gone. */
  message?: string;
  reason?: "credits" | "hangup" | "replaced" | "server" | "closed" | "session";
  /** The row is already closed in the database (elsewhere); do not close it again. */
  closedInDatabase?: boolean;
  /** Close code (default 1000). */
  code?: number;
  reportedDurationSeconds?: number;
  /** When it ended, if not now (a dropped call that was not resumed: when it dropped). */
  endedAt?: Date;
}

/** The session a call was opened with: a logout of it or the account's end ends the call. */
export interface CallSession {
  token: string;
  jti: string;
}

/**
 * One live call on this instance: its record, meter, conversation and socket. The socket may
 * drop and another take its place within VOICE_RESUME_GRACE_MS (the same call and minute go on).
 */
export class LiveCall {
  private ending: Promise<VoiceCallRow | undefined> | undefined;
  readonly conversation: CallConversation;
  readonly meter: CallMeter;
  private readonly turns: DatabaseCallTurns;
  private readonly notices: CallNotices | undefined;
  /** The socket carrying the call; undefined while it is dropped and may be resumed. */
  private socket: CallSocket | undefined;
  private cancelGrace: (() => void) | undefined;

  constructor(
    readonly row: VoiceCallRow,
    socket: CallSocket,
    readonly session: CallSession,
    private readonly deps: {
      repository: VoiceRepository;
      engine: VoiceEngine;
      clock: Clock;
      log: FastifyBaseLogger;
      voiceId: string | null;
      turns: CallTurnStore;
      onTurn?: (userId: string) => void;
      crisis?: CallCrisis;
      onEnded(call: LiveCall): void;
      /** The AI notice; with `speakNotice`, the persona's voice outside the fan's caps. */
      notices?: Pick<AiNotices, "forCall" | "clock">;
      speakNotice?: (text: string, signal: AbortSignal) => Promise<SynthesizedAudio>;
    },
  ) {
    this.socket = socket;
    // The conversation speaks to whichever socket carries the call now.
    const channel = {
      sendJson: (message: Parameters<CallSocket["sendJson"]>[0]) => this.socket?.sendJson(message),
      sendAudio: (audio: Buffer) => this.socket?.sendAudio(audio),
    };
    this.turns = new DatabaseCallTurns(deps.turns, row, deps.onTurn, deps.crisis);
    this.conversation = new CallConversation(
      deps.engine,
      channel,
      deps.voiceId,
      this.turns,
      deps.log,
      deps.crisis,
    );
    const { notices, speakNotice } = deps;
    this.notices =
      notices && speakNotice
        ? new CallNotices({
            notices,
            call: row,
            log: deps.log,
            speak: speakNotice,
            say: (notice, signal) => this.conversation.announce(notice, signal),
          })
        : undefined;
    this.meter = new CallMeter(row, {
      repository: deps.repository,
      clock: deps.clock,
      log: deps.log,
      events: {
        onWarning: (message, creditsRemaining) =>
          channel.sendJson({ type: "credit_warning", message, creditsRemaining }),
        onCreditsOut: () =>
          void this.end("credits", { message: VOICE_MESSAGES.creditsRunOut, reason: "credits" }),
        onClosedElsewhere: () =>
          void this.end("hangup", {
            message: VOICE_MESSAGES.callEnded,
            reason: "closed",
            closedInDatabase: true,
          }),
      },
    });
  }

  /**
   * Ends the call, once whatever asks (socket closed, `end`, POST /end, credits, a newer
   * connection, shutdown): metering and the reply stop, the record is closed, and the socket,
   * when still open, hears call_ended and closes. Answers the closed row.
   */
  end(reason: VoiceCallEndReason, options: EndOptions = {}): Promise<VoiceCallRow | undefined> {
    this.ending ??= this.finish(reason, options);
    return this.ending;
  }

  /**
   * The call opened: its AI notice is stored and spoken before it answers anything (then every
   * 3 hours while it lasts); answers a function that says it, once the client knows the call.
   */
  async openNotices(): Promise<() => void> {
    const notices = this.notices;
    if (!notices) return () => {};
    const opening = await notices.open();
    return () => notices.say(opening);
  }

  get ended(): boolean {
    return this.ending !== undefined;
  }

  /** True while the socket is dropped and the call waits for a reconnection. */
  get detached(): boolean {
    return this.socket === undefined && !this.ended;
  }

  /**
   * The socket `from` dropped: the reply stops, no minute is charged, and unless a new socket
   * takes the call over within VOICE_RESUME_GRACE_MS it is closed as dropped, at the time it dropped.
   * A socket that no longer carries the call changes nothing.
   */
  drop(from: CallSocket): void {
    if (this.socket !== from || this.ended) return;
    this.socket = undefined;
    const droppedAt = new Date(this.deps.clock.now());
    this.conversation.interrupt();
    void this.meter.stop();
    this.cancelGrace = this.deps.clock.setTimer(() => {
      void this.end("dropped", { endedAt: droppedAt });
    }, VOICE_RESUME_GRACE_MS);
  }

  /**
   * A reconnection takes the call over: the meter goes on where it paused. A socket still
   * attached (the server did not see it drop yet: a Wi-Fi switch) is let go first, with a code
   * that is not a hang-up.
   */
  resume(socket: CallSocket, session: CallSession): void {
    const previous = this.socket;
    if (previous) {
      this.drop(previous);
      previous.close(VOICE_CLOSE_CODES.resumedElsewhere);
    }
    this.cancelGrace?.();
    this.cancelGrace = undefined;
    this.socket = socket;
    Object.assign(this.session, session);
    void this.meter.resume();
  }

  private async finish(reason: VoiceCallEndReason, options: EndOptions) {
    const endedAt = options.endedAt ?? new Date(this.deps.clock.now());
    this.cancelGrace?.();
    this.deps.onEnded(this);
    // No more of a reply or a notice goes out; no more minutes are charged.
    this.notices?.stop();
    this.conversation.interrupt();
    await this.meter.stop();
    let row: VoiceCallRow | undefined;
    try {
      row = options.closedInDatabase
        ? await this.deps.repository.findCall(this.row.id)
        : ((await this.deps.repository.closeCall(
            this.row.id,
            reason,
            endedAt,
            options.reportedDurationSeconds,
          )) ?? (await this.deps.repository.findCall(this.row.id)));
    } catch (error) {
      // Left open: the sweep closes it at the end of its last paid minute.
      this.deps.log.error({ err: error, callId: this.row.id }, "Could not close a call record");
    }
    // The record is closed, and the turns said so far stored, before the client hears of it:
    // its history and transcript are right at once.
    await this.turns.written();
    if (options.message && this.socket) {
      this.socket.sendJson({
        type: "call_ended",
        message: options.message,
        ...(options.reason ? { reason: options.reason } : {}),
      });
      this.socket.close(options.code ?? VOICE_CLOSE_CODES.normal);
    }
    await this.conversation.close();
    try {
      await this.turns.finish();
    } catch (error) {
      this.deps.log.error({ err: error, callId: this.row.id }, "Could not mark a silent call");
    }
    return row;
  }
}

export type OpenOutcome =
  | { kind: "open"; call: LiveCall }
  | { kind: "refused"; message: string; code: number };

export interface VoiceServiceOptions {
  repository: VoiceRepository;
  engine: VoiceEngine;
  settings: Pick<SettingsService, "get">;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Where call turns are stored (the chat repository: one conversation with the chat). */
  turns: CallTurnStore & {
    callTranscript(callId: string): Promise<ChatMessageRow[]>;
  };
  /** The chat's long-term memory (recall and summary in each reply's prompt). */
  memory?: Pick<MemorySource, "recall">;
  /** A call turn was stored (memory may refresh the fan's summary). */
  onTurn?: (userId: string) => void;
  /** The crisis check of every utterance before the LLM (issue 25); absent: none. */
  crisis?: CallCrisis;
  /** The AI notice at the call's start and every 3 hours (chat/ai-notice.ts). */
  notices?: Pick<AiNotices, "forCall" | "clock">;
  /** The account of a session token if it is still valid, else throws (plugins/auth.ts). */
  authenticate(token: string): Promise<UserRow>;
  /** The daily caps of provider spend (synthesize, process and calls together). */
  usage: VoiceUsageLimits;
  /** Utterances per user per minute on calls, counted in `counters`. */
  utterancesPerMinute: number;
  /** The counters every limit uses (plugins/rate-limit.ts: Redis when set, else memory). */
  counters: Pick<AttemptCounters, "hit">;
}

export function createVoiceService(options: VoiceServiceOptions) {
  const { repository, engine, settings, clock, log, turns } = options;
  /** Set when the server begins to shut down: no call starts or resumes any more. */
  let closing = false;
  /** This instance's live calls, by user: one per user. */
  const live = new Map<string, LiveCall>();
  /** Calls of this instance that have begun to end and are not closed yet, by user. */
  const ending = new Map<string, LiveCall>();
  const now = () => clock.now();
  const checkCredits = async (user: UserRow): Promise<Omit<CheckCreditsResponse, "success">> => {
    const current = await settings.get();
    return {
      credits: user.credits,
      creditsPerMinute: current.creditsPerMinute,
      hasCredits: user.credits >= current.creditsPerMinute,
      voiceEnabled: voiceEnabled(current),
    };
  };
  /**
   * What POST synthesize and process need: voice on and credits for a minute (the rule of
   * check-credits), then room under the user's daily cap; else 403, 402 or 429.
   */
  const assertVoiceAccess = async (user: UserRow): Promise<void> => {
    const access = await checkCredits(user);
    if (!access.voiceEnabled) throw new HttpError(403, VOICE_MESSAGES.voiceDisabled);
    if (!access.hasCredits) throw new HttpError(402, VOICE_MESSAGES.insufficientCredits);
  };
  const spend = async (user: Pick<UserRow, "id">, amount: UsageAmount): Promise<string> => {
    const day = new Date(now()).toISOString().slice(0, 10);
    const allowed = await repository.addDailyUsage(user.id, day, amount, options.usage);
    if (!allowed) throw new HttpError(429, VOICE_MESSAGES.dailyLimit);
    return day;
  };
  const utteranceAllowed = utteranceRate(options.counters, options.utterancesPerMinute);

  return {
    live,

    checkCredits,

    /**
     * Starts a call for `user` on `socket`: refused when voice is off, the credits do not pay a
     * minute, or the user has a live call already (one per fan, decided by the database, so on
     * every instance; nothing is charged); else the first minute is charged and metering starts.
     * A socket of the user's dropped call on this instance takes that call up again; `resume`,
     * a reconnecting client's call id: that call goes on, or nothing starts.
     */
    async open(
      user: UserRow,
      socket: CallSocket,
      session: CallSession,
      resume?: string,
    ): Promise<OpenOutcome> {
      const restarting = {
        kind: "refused" as const,
        message: VOICE_MESSAGES.serverClosing,
        code: VOICE_CLOSE_CODES.serverRestart,
      };
      if (closing) return restarting;
      const current = await settings.get();
      // An account made before sign-up asked gives its date of birth first (decision 0054).
      const refusal = ageRefusal(user.dateOfBirth, current.minimumAge);
      if (refusal) {
        return {
          kind: "refused",
          message: refusal.message,
          code:
            refusal.statusCode === 428
              ? VOICE_CLOSE_CODES.dateOfBirthRequired
              : VOICE_CLOSE_CODES.underAge,
        };
      }
      if (!voiceEnabled(current)) {
        return {
          kind: "refused",
          message: VOICE_MESSAGES.voiceDisabled,
          code: VOICE_CLOSE_CODES.voiceDisabled,
        };
      }
      const rate = current.creditsPerMinute;
      const insufficient = {
        kind: "refused" as const,
        message: VOICE_MESSAGES.insufficientCredits,
        code: VOICE_CLOSE_CODES.insufficientCredits,
      };
      // A reconnection within the grace after a drop: the same call and minute go on. A client
      // that names the call it resumes takes it over even before its old socket was seen to
      // drop, and never gets a new call (nor a new minute charged) when it is gone.
      const dropped = live.get(user.id);
      const resumable =
        dropped !== undefined &&
        !dropped.ended &&
        (resume === undefined ? dropped.detached : dropped.row.id === resume);
      if (resume !== undefined && !resumable) {
        return {
          kind: "refused",
          message: VOICE_MESSAGES.connectionLost,
          code: VOICE_CLOSE_CODES.notResumable,
        };
      }
      if (dropped && resumable) {
        dropped.resume(socket, session);
        const { stt, tts } = await engine.modes();
        socket.sendJson({
          type: "call_started",
          callId: dropped.row.id,
          creditsPerMinute: dropped.row.creditsPerMinute,
          creditsRemaining: user.credits,
          stt,
          tts,
          resumed: true,
        });
        return { kind: "open", call: dropped };
      }
      if (user.credits < rate) return insufficient;
      // A call of the user still closing here (a hang-up, then a redial at once): its record
      // closes first, so the new call is not refused as a second one.
      const leaving = ending.get(user.id);
      if (leaving) await leaving.end("hangup");
      const [started, voiceId] = await Promise.all([
        repository.startCall({
          userId: user.id,
          now: () => new Date(now()),
          creditsPerMinute: rate,
          abandonedGraceMs: ABANDONED_GRACE_MS,
        }),
        repository.voiceId(),
      ]);
      if (started.kind === "insufficient") return insufficient;
      if (started.kind === "busy") {
        return {
          kind: "refused",
          message: VOICE_MESSAGES.callInProgress,
          code: VOICE_CLOSE_CODES.callInProgress,
        };
      }
      if (closing) {
        await repository.closeCall(started.call.id, "server", new Date(now()));
        return restarting;
      }
      const call = new LiveCall(started.call, socket, session, {
        repository,
        // Every provider request of the call passes the user's rate and daily caps.
        engine: cappedEngine(
          options.memory ? rememberingEngine(engine, user.id, options.memory, log) : engine,
          {
            utterance: () => utteranceAllowed(user.id),
            daily: (amount) => spend(user, amount),
            giveBack: (day, amount) => repository.giveBackDailyUsage(user.id, day, amount),
          },
        ),
        clock,
        log,
        voiceId,
        turns,
        ...(options.onTurn ? { onTurn: options.onTurn } : {}),
        ...(options.crisis ? { crisis: options.crisis } : {}),
        ...(options.notices
          ? {
              notices: options.notices,
              // The engine without the caps: the notice is the product's, never refused.
              speakNotice: (text: string, signal: AbortSignal) =>
                engine.speak(text, voiceId, signal),
            }
          : {}),
        onEnded: (ended) => {
          if (live.get(user.id) === ended) live.delete(user.id);
          ending.set(user.id, ended);
          // Forgotten once closed (a microtask later, `end` answers the ending under way).
          queueMicrotask(() => {
            void ended.end("hangup").finally(() => {
              if (ending.get(user.id) === ended) ending.delete(user.id);
            });
          });
        },
      });
      live.set(user.id, call);
      const [sayNotices, { stt, tts }] = await Promise.all([call.openNotices(), engine.modes()]);
      socket.sendJson({
        type: "call_started",
        callId: started.call.id,
        creditsPerMinute: rate,
        creditsRemaining: started.balance,
        stt,
        tts,
      });
      sayNotices();
      call.meter.start(started.balance);
      return { kind: "open", call };
    },

    /**
     * POST /api/voice-call/end: closes the user's live call (here, or on another instance
     * through the database), or answers the call closed already: a retry changes nothing.
     */
    async end(user: UserRow, reportedDurationSeconds: number): Promise<VoiceCallRecord | null> {
      const here = live.get(user.id);
      if (here) {
        const row = await here.end("hangup", {
          message: VOICE_MESSAGES.callEnded,
          reason: "hangup",
          reportedDurationSeconds,
        });
        if (row) return toCallRecord(row, now());
      }
      const closed = await repository.closeOpenCallOf(
        user.id,
        "hangup",
        new Date(now()),
        reportedDurationSeconds,
      );
      if (closed) return toCallRecord(closed, now());
      const latest = await repository.latestCall(user.id);
      if (!latest) return null;
      if (latest.reportedDurationSeconds === null) {
        await repository.noteReportedDuration(latest.id, reportedDurationSeconds);
      }
      return toCallRecord(latest, now());
    },

    async history(user: UserRow, page: { page: number; limit: number }) {
      const { rows, total } = await repository.history(user.id, page);
      return {
        calls: rows.map((row) => toCallRecord(row, now())),
        pagination: pagination(total, page),
      };
    },

    /** One of the fan's calls and its transcript; another fan's (or none): 404. */
    async callDetail(user: UserRow, callId: string) {
      const row = await repository.findCall(callId);
      if (!row || row.userId !== user.id) throw new HttpError(404, VOICE_MESSAGES.callNotFound);
      const transcript = await turns.callTranscript(callId);
      return {
        call: toCallRecord(row, now()),
        transcript: transcript.map((turn) => ({
          _id: turn.id,
          sender: turn.sender,
          ...(turn.productKind ? { productKind: turn.productKind } : {}),
          content: turn.content,
          timestamp: turn.createdAt.toISOString(),
        })),
      };
    },

    /**
     * A session ended (logout, password change or reset, deactivation; heard from any
     * instance): the live call it opened ends now, with 4401. Without `end` (notifications may
     * have been missed), every live call's session is checked.
     */
    async sessionEnded(end?: SessionEnd): Promise<void> {
      const calls = [...live.values()].filter(
        (call) =>
          !end || ("userId" in end ? call.row.userId === end.userId : call.session.jti === end.jti),
      );
      await Promise.all(
        calls.map(async (call) => {
          try {
            await options.authenticate(call.session.token);
            return;
          } catch (error) {
            if (!(error instanceof HttpError) || error.statusCode !== 401) {
              log.warn({ err: error, callId: call.row.id }, "Could not check a call's session");
              return;
            }
          }
          await call.end("session", {
            message: VOICE_MESSAGES.unauthorized,
            reason: "session",
            code: VOICE_CLOSE_CODES.sessionEnded,
          });
        }),
      );
    },

    /**
     * The account is being deleted (already deactivated): its live call ends now, here with
     * 4401 and reason `session`, or in the database when another instance holds it (that one
     * hears the close and drops its socket). The record is closed once, metered as it stood.
     */
    async endCallOf(userId: string): Promise<void> {
      const here = live.get(userId);
      if (here && !here.ended) {
        await here.end("session", {
          message: VOICE_MESSAGES.unauthorized,
          reason: "session",
          code: VOICE_CLOSE_CODES.sessionEnded,
        });
      }
      await repository.closeOpenCallOf(userId, "session", new Date(now()));
    },

    /** A call was closed in the database by another instance (replaced, POST /end there). */
    async closedElsewhere(callId: string): Promise<void> {
      const call = [...live.values()].find((candidate) => candidate.row.id === callId);
      if (!call || call.ended) return;
      const row = await repository.findCall(callId);
      if (!row?.endedAt) return;
      const replaced = row.endReason === "replaced";
      await call.end(row.endReason ?? "hangup", {
        message: replaced ? VOICE_MESSAGES.replaced : VOICE_MESSAGES.callEnded,
        reason: replaced ? "replaced" : "closed",
        closedInDatabase: true,
      });
    },

    async process(user: UserRow, text: string, signal: AbortSignal): Promise<string> {
      await assertVoiceAccess(user);
      // The crisis check before the model: the caring message, and no LLM call to pay for.
      const crisis = options.crisis;
      if (crisis && (await crisis.check(text, signal))) return crisis.spokenMessage();
      await spend(user, { llmCalls: 1 });
      let answer: string;
      try {
        answer = await engine.answer(text, signal);
        if (!answer) throw new Error("empty reply");
      } catch (error) {
        log.error({ err: error }, "Voice process failed");
        throw new HttpError(502, VOICE_MESSAGES.processFailed);
      }
      // With a key, a reply giving self-harm instructions is never handed on: the caring
      // message takes its place, as in the chat (decision 0060).
      if (crisis && (await crisis.checkReply(answer, signal))) return crisis.spokenMessage();
      return answer;
    },

    async synthesize(user: UserRow, text: string, signal: AbortSignal) {
      await assertVoiceAccess(user);
      await spend(user, { synthesizedCharacters: text.length });
      try {
        return await engine.speak(text, await repository.voiceId(), signal);
      } catch (error) {
        log.error({ err: error }, "Voice synthesis failed");
        throw new HttpError(502, VOICE_MESSAGES.synthesizeFailed);
      }
    },

    /** Closes calls a stopped server left open (at boot, then every minute). */
    async closeAbandoned(): Promise<number> {
      const closed = await repository.closeAbandoned(
        new Date(now()),
        ABANDONED_GRACE_MS,
        [...live.values()].map((call) => call.row.id),
      );
      if (closed.length > 0) log.info({ calls: closed.length }, "Closed abandoned voice calls");
      return closed.length;
    },

    /**
     * Shutdown: no call starts any more; every live call hears the restart message and its
     * record is closed (the writes finish before the database closes).
     */
    async shutdown(): Promise<void> {
      closing = true;
      await Promise.all(
        [...live.values()].map((call) =>
          call.end("server", {
            message: VOICE_MESSAGES.serverClosing,
            reason: "server",
            code: VOICE_CLOSE_CODES.serverRestart,
          }),
        ),
      );
    },
  };
}

export type VoiceService = ReturnType<typeof createVoiceService>;
