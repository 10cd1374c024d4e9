import { VOICE_CLOSE_CODES, VOICE_MESSAGES, VOICE_RESUME_GRACE_MS } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../../../lib/clock.ts";
import type { SynthesizedAudio } from "../../../providers/tts/index.ts";
import type { AiNotices } from "../../chat/ai-notice.ts";
import { CallNotices } from "../call-notices.ts";
import { type CallTurnStore, DatabaseCallTurns } from "../call-turns.ts";
import type { CallCrisis } from "../crisis-turn.ts";
import type { VoiceEngine } from "../engine.ts";
import { CallMeter } from "../metering.ts";
import { type CallChannel, CallConversation } from "../pipeline.ts";
import type { VoiceCallEndReason, VoiceCallRow, VoiceRepository } from "../repository.ts";

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
