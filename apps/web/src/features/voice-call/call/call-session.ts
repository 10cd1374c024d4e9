import {
  type ProductMessageKind,
  VOICE_CLOSE_CODES,
  VOICE_MIN_UTTERANCE_BYTES,
  VOICE_RESUME_GRACE_MS,
  type VoiceServerMessage,
  voiceServerMessageSchema,
} from "@twinline/contracts";
import { CALL_TEXT } from "../messages";
import {
  type AttemptOutcome,
  CALL_STARTED_TIMEOUT_MS,
  CLEANUP_DELAY_MS,
  CONNECT_TIMEOUT_MS,
  connectWithRetry,
  reconnectWithin,
  reportWithRetry,
  type Sleep,
  sleep,
} from "./policies";

/**
 * One live call, outside React: the socket (with its connection attempts), the microphone's
 * utterances going up, the persona's audio coming down, barge-in, mute, and the end of the call
 * (status, cleanup, the end report). The screen subscribes to its state; the tests drive it with
 * a fake socket, microphone and player.
 */

export type CallStatus = "idle" | "connecting" | "active" | "error" | "ended";
export type Speaker = "none" | "user" | "persona";

/** One line of the live captions: the fan's words as transcribed, the persona's as spoken. */
export interface Caption {
  id: number;
  /** notice: the product's own (the AI notice, a break reminder; issue 25), not the persona's. */
  who: "user" | "persona" | "notice";
  /** A notice's kind. */
  kind?: ProductMessageKind;
  text: string;
  /** The fan's line is the offline notice (nothing was transcribed). */
  offline?: boolean;
  /** The persona's reply was cut short by barge-in. */
  interrupted?: boolean;
}

/** Captions kept on screen (the oldest scroll away). */
export const MAX_CAPTIONS = 200;

export interface CallState {
  status: CallStatus;
  /**
   * The connection dropped and the same call is being taken up again (decision 0053): the call
   * stays active on the server for VOICE_RESUME_GRACE_MS; the screen says "Reconnecting…".
   */
  reconnecting: boolean;
  /** The error shown with status "error". */
  error: string | null;
  /** The closing message with status "ended" (call_ended's, or "Call ended"). */
  endedMessage: string | null;
  /** A note while connecting (a failed attempt being retried). */
  notice: string | null;
  /** Date.now() when the call became active, and when it ended. */
  startedAt: number | null;
  endedAt: number | null;
  muted: boolean;
  bargeIn: boolean;
  speaker: Speaker;
  /** An utterance went up and no answer came yet. */
  thinking: boolean;
  transcript: { text: string; offline: boolean } | null;
  response: string | null;
  /** The running transcript of the call, oldest first. */
  captions: Caption[];
  /** The server's speech-to-text: "offline" hears nothing, "pocketsphinx" hears roughly. */
  stt: "openai" | "pocketsphinx" | "offline" | null;
  creditsPerMinute: number | null;
  /** The balance the server last reported (after the first minute at the start)… */
  creditsRemaining: number | null;
  /** …during this minute of the call (1-based). */
  creditsMinute: number;
  /** The latest credit_warning text. */
  warning: string | null;
  /** Persona audio frames received and utterances sent (shown nowhere; for tests and debugging). */
  audioFrames: number;
  utterancesSent: number;
}

export const INITIAL_CALL_STATE: CallState = {
  status: "idle",
  reconnecting: false,
  error: null,
  endedMessage: null,
  notice: null,
  startedAt: null,
  endedAt: null,
  muted: false,
  bargeIn: true,
  speaker: "none",
  thinking: false,
  transcript: null,
  response: null,
  captions: [],
  stt: null,
  creditsPerMinute: null,
  creditsRemaining: null,
  creditsMinute: 1,
  warning: null,
  audioFrames: 0,
  utterancesSent: 0,
};

/** The part of WebSocket the call uses. */
export interface SocketLike {
  binaryType: BinaryType;
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(data: string | Blob | ArrayBuffer): void;
  close(code?: number, reason?: string): void;
}

export interface MicrophoneHandlers {
  /** One utterance, as one self-contained audio file, committed at once (the level detector). */
  onUtterance(blob: Blob): void;
  /** Eager end of turn (decision 0042): the utterance so far, on a short pause. */
  onCandidate(blob: Blob): void;
  /** The pause reached the end of the turn: the candidate is the fan's turn. */
  onCommit(): void;
  /** The fan spoke again: the candidate is dropped (the next one carries the whole utterance). */
  onCancel(): void;
  /**
   * The fan spoke again right after a commit: true when the committed turn is taken back (its
   * answer not heard yet), so the utterance goes on from its first word; false: a new turn.
   */
  onContinue(): boolean;
  /** What seemed speech was too short to be an utterance (a cough): nothing was sent. */
  onMisfire(): void;
  /** The user started or stopped speaking. */
  onSpeech(speaking: boolean): void;
  /** The user spoke over the persona. */
  onBargeIn(): void;
}

export interface MicrophoneLike {
  /** The server heard the pending candidate: unfinished words wait longer for the commit. */
  hear?(unfinished: boolean): void;
  setMuted(muted: boolean): void;
  /** While the persona speaks: raise the speech threshold (barge-in on) or pause (off). */
  setPersonaSpeaking(speaking: boolean): void;
  setBargeIn(enabled: boolean): void;
  stop(): void;
}

/** Thrown by openMicrophone: the browser cannot record at all (no API, no format). */
export class RecordingUnsupportedError extends Error {}

export interface PlayerHandlers {
  onPlaying(playing: boolean): void;
  /** A frame could not be decoded or played. */
  onError(): void;
}

export interface PlayerLike {
  /** Queues one self-contained audio file; plays at once when nothing else is playing. */
  play(bytes: ArrayBuffer, format: string): void;
  /** Stops what plays and drops the queue (barge-in, hang-up). */
  stop(): void;
  /** Releases the audio output. */
  close(): void;
}

export interface CallDeps {
  socketUrl(): string;
  createSocket(url: string): SocketLike;
  supportsWebSocket(): boolean;
  openMicrophone(
    handlers: MicrophoneHandlers,
    options: { bargeIn: boolean },
  ): Promise<MicrophoneLike>;
  createPlayer(handlers: PlayerHandlers): PlayerLike;
  /** POST /api/voice-call/end {duration}. */
  reportEnd(durationSeconds: number): Promise<unknown>;
  /** A short error toast, and the credit warning (shown 5 s). */
  notifyError(message: string): void;
  notifyWarning(message: string): void;
  now?: () => number;
  wait?: Sleep;
}

const OPEN = 1;
/** Close codes that refuse the call: final answers, not connection failures to retry. */
const REFUSALS = new Set<number>([
  VOICE_CLOSE_CODES.unauthorized,
  VOICE_CLOSE_CODES.insufficientCredits,
  VOICE_CLOSE_CODES.voiceDisabled,
  VOICE_CLOSE_CODES.callInProgress,
]);
/** Closes after which the call is not taken up again: it ended, or another socket carries it. */
const NOT_RESUMED = new Set<number>([
  VOICE_CLOSE_CODES.normal,
  ...REFUSALS,
  VOICE_CLOSE_CODES.notResumable,
  VOICE_CLOSE_CODES.resumedElsewhere,
]);
/** How a reconnection attempt that the server refused to resume ends (the call is gone). */
const GONE = `closed ${VOICE_CLOSE_CODES.notResumable}`;

export class CallSession {
  private state: CallState = INITIAL_CALL_STATE;
  private readonly listeners = new Set<() => void>();
  private socket: SocketLike | null = null;
  private mic: MicrophoneLike | null = null;
  private player: PlayerLike | null = null;
  /** The reply whose audio frames are being received, or null (none, or cut by barge-in). */
  private reply: { id: string; format: string } | null = null;
  /** The reply whose frames were last handed to the player. */
  private playedReplyId: string | null = null;
  private personaPlaying = false;
  private userSpeaking = false;
  /** The candidate sent and not yet committed or cancelled (decision 0042). */
  private candidateId: string | null = null;
  /**
   * The candidate last committed, while the fan may still go on with it (decision 0053):
   * whether any of its answer played, and the captions shown before it.
   */
  private committed: { id: string; played: boolean; captionsBefore: number } | null = null;
  private candidates = 0;
  /** Reply frames that arrived while the fan was speaking: played when they stop. */
  private held: { bytes: ArrayBuffer; format: string }[] = [];
  private captionIds = 0;
  /** The persona's reply text, shown once its audio plays (or at once when it has none). */
  private pendingCaption: {
    replyId: string | undefined;
    text: string;
    interrupted: boolean;
  } | null = null;
  /** Messages that arrived before the call was attached (call_started, a refusal's error). */
  private early: { messages: unknown[]; closedWith: number | null } = {
    messages: [],
    closedWith: null,
  };
  private lastServerError: string | null = null;
  /** The live call's id (call_started): a reconnection resumes it. */
  private callId: string | null = null;
  private finished = false;
  private cancelled = false;
  private readonly now: () => number;
  private readonly wait: Sleep;

  constructor(private readonly deps: CallDeps) {
    this.now = deps.now ?? Date.now;
    this.wait = deps.wait ?? sleep;
  }

  // ---- state for the screen ----

  getState = (): CallState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private update(patch: Partial<CallState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  // ---- the user's actions ----

  /** Places the call: microphone first (nothing is charged if it fails), then the socket. */
  async start(): Promise<void> {
    if (this.state.status !== "idle") return;
    if (!this.deps.supportsWebSocket()) {
      this.update({ status: "error", error: CALL_TEXT.noWebSocket });
      return;
    }
    this.update({ status: "connecting" });
    try {
      this.mic = await this.deps.openMicrophone(
        {
          onUtterance: (blob) => this.sendUtterance(blob),
          onCandidate: (blob) => this.sendCandidate(blob),
          onCommit: () => this.commitCandidate(),
          onCancel: () => this.cancelCandidate(),
          onContinue: () => this.continueCommitted(),
          onMisfire: () => this.releaseHeld(),
          onSpeech: (speaking) => {
            this.userSpeaking = speaking;
            if (!speaking && this.candidateId === null) this.releaseHeld();
            this.updateSpeaker();
          },
          onBargeIn: () => this.bargeIn(),
        },
        { bargeIn: this.state.bargeIn },
      );
    } catch (error) {
      this.fail(
        error instanceof RecordingUnsupportedError
          ? CALL_TEXT.noRecording
          : CALL_TEXT.microphoneDenied,
      );
      return;
    }
    if (this.cancelled) {
      this.teardown();
      return;
    }
    if (this.state.muted) this.mic.setMuted(true);
    this.player = this.deps.createPlayer({
      onPlaying: (playing) => {
        this.personaPlaying = playing;
        if (playing) this.showPendingCaption();
        this.mic?.setPersonaSpeaking(playing);
        this.updateSpeaker();
      },
      onError: () => this.deps.notifyError(CALL_TEXT.playFailed),
    });

    const outcome = await connectWithRetry(() => this.openSocket(null), {
      wait: this.wait,
      cancelled: () => this.cancelled,
      onRetry: () => this.update({ notice: CALL_TEXT.connectionError }),
    });
    if (this.cancelled) {
      if (outcome.ok) outcome.socket.close(VOICE_CLOSE_CODES.normal, "hangup");
      this.teardown();
      return;
    }
    if (!outcome.ok) {
      this.fail(CALL_TEXT.somethingWentWrong);
      return;
    }
    this.takeSocket(outcome.socket);
  }

  /** Carries the call on `socket`, then handles what it said while it was being opened. */
  private takeSocket(socket: SocketLike): void {
    this.attach(socket);
    const { messages, closedWith } = this.early;
    this.early = { messages: [], closedWith: null };
    for (const message of messages) this.onMessage(message);
    if (closedWith !== null) this.onClose(closedWith);
  }

  /**
   * The connection dropped mid-call (close 1006, a screen lock, a Wi-Fi switch): the server keeps
   * the call for VOICE_RESUME_GRACE_MS, so it is taken up again, with back-off, naming the call
   * (`resume`): the same call and minute go on. When the window passes, or the server says the
   * call is gone, the call has failed: "Connection lost unexpectedly".
   */
  private async reconnect(): Promise<void> {
    const droppedAt = this.now();
    this.detachSocket();
    // What was under way is lost with the socket: the server dropped the turn and its reply.
    this.candidateId = null;
    this.committed = null;
    this.dropReply();
    this.update({ reconnecting: true, thinking: false });
    const outcome = await reconnectWithin(() => this.openSocket(this.callId), {
      deadline: droppedAt + VOICE_RESUME_GRACE_MS,
      now: this.now,
      wait: this.wait,
      cancelled: () => this.finished,
      final: (reason) => reason === GONE,
    });
    if (this.finished) {
      // Hung up meanwhile: the end report closes the call; a socket that came back ends it too.
      if (outcome.ok) this.endOn(outcome.socket);
      return;
    }
    if (!outcome.ok) {
      this.fail(CALL_TEXT.connectionLost);
      return;
    }
    this.takeSocket(outcome.socket);
  }

  private detachSocket(): void {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onmessage = socket.onclose = socket.onerror = null;
  }

  private endOn(socket: SocketLike): void {
    if (socket.readyState !== OPEN) return;
    socket.send(JSON.stringify({ type: "end" }));
    socket.close(VOICE_CLOSE_CODES.normal, "hangup");
  }

  /** Hang up (also while connecting). */
  hangUp(): void {
    if (this.finished) return;
    if (this.state.status === "connecting" && !this.socket) {
      this.cancelled = true;
      this.finish("ended", CALL_TEXT.callEnded);
      return;
    }
    if (this.socket) this.endOn(this.socket);
    this.finish("ended", CALL_TEXT.callEnded);
  }

  toggleMute(): void {
    const muted = !this.state.muted;
    this.mic?.setMuted(muted);
    if (muted) this.userSpeaking = false;
    this.update({ muted });
    this.updateSpeaker();
  }

  setBargeIn(enabled: boolean): void {
    this.mic?.setBargeIn(enabled);
    this.update({ bargeIn: enabled });
  }

  /** The screen went away: end the call as a hang-up would. */
  dispose(): void {
    this.hangUp();
  }

  // ---- socket ----

  /**
   * One connection attempt: the socket must open within CONNECT_TIMEOUT_MS and the server's
   * `call_started` arrive within CALL_STARTED_TIMEOUT_MS of the opening, else the attempt failed
   * (and is retried). A refusal (an error, then a 44xx close) ends the attempts: it is the
   * answer, handled once attached.
   */
  private openSocket(resume: string | null): Promise<AttemptOutcome<SocketLike>> {
    return new Promise((resolve) => {
      let socket: SocketLike;
      try {
        const url = new URL(this.deps.socketUrl());
        if (resume !== null) url.searchParams.set("resume", resume);
        socket = this.deps.createSocket(url.toString());
      } catch {
        resolve({ ok: false, reason: "refused" });
        return;
      }
      socket.binaryType = "arraybuffer";
      const early: unknown[] = [];
      let settled = false;
      let timer: ReturnType<typeof setTimeout>;
      const settle = (outcome: AttemptOutcome<SocketLike>, closedWith: number | null = null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (outcome.ok) this.early = { messages: early, closedWith };
        resolve(outcome);
      };
      const giveUp = (reason: string) => () => {
        socket.onopen = socket.onclose = socket.onerror = socket.onmessage = null;
        try {
          socket.close();
        } catch {
          // already closing
        }
        settle({ ok: false, reason });
      };
      timer = setTimeout(giveUp("timeout"), CONNECT_TIMEOUT_MS);
      socket.onopen = () => {
        clearTimeout(timer);
        timer = setTimeout(giveUp("no call_started"), CALL_STARTED_TIMEOUT_MS);
      };
      socket.onerror = () => undefined;
      socket.onmessage = (event) => {
        early.push(event.data);
        if (typeof event.data === "string" && event.data.includes('"call_started"')) {
          settle({ ok: true, socket });
        }
      };
      socket.onclose = (event) => {
        if (REFUSALS.has(event.code)) settle({ ok: true, socket }, event.code);
        else settle({ ok: false, reason: `closed ${event.code}` });
      };
    });
  }

  private attach(socket: SocketLike): void {
    this.socket = socket;
    this.update({ notice: null });
    socket.onopen = null;
    socket.onerror = () => undefined; // the close that follows says what happened
    socket.onmessage = (event) => this.onMessage(event.data);
    socket.onclose = (event) => this.onClose(event.code);
  }

  private onMessage(data: unknown): void {
    if (this.finished) return;
    if (typeof data === "string") {
      let raw: unknown;
      try {
        raw = JSON.parse(data);
      } catch {
        return;
      }
      const parsed = voiceServerMessageSchema.safeParse(raw);
      if (parsed.success) this.handle(parsed.data);
      return;
    }
    if (data instanceof ArrayBuffer) this.onAudio(data);
    else if (typeof Blob !== "undefined" && data instanceof Blob) {
      data.arrayBuffer().then((bytes) => this.onAudio(bytes));
    }
  }

  private onAudio(bytes: ArrayBuffer): void {
    // Frames of a reply cut by barge-in (still in flight) are dropped.
    if (!this.reply || this.finished) return;
    this.update({ audioFrames: this.state.audioFrames + 1 });
    this.playedReplyId = this.reply.id;
    // A reply never starts while the fan speaks: it waits for them (or is dropped by their
    // next candidate). Once it plays, barge-in is what stops it.
    if ((this.userSpeaking || this.held.length > 0) && !this.personaPlaying) {
      this.held.push({ bytes, format: this.reply.format });
      return;
    }
    this.play(bytes, this.reply.format);
  }

  /** The fan stopped without a new turn (a cough, a short noise): the waiting reply plays. */
  private releaseHeld(): void {
    const held = this.held;
    this.held = [];
    for (const frame of held) this.play(frame.bytes, frame.format);
  }

  private play(bytes: ArrayBuffer, format: string): void {
    if (this.committed) this.committed.played = true;
    this.player?.play(bytes, format);
  }

  private addCaption(caption: Omit<Caption, "id">): void {
    this.captionIds += 1;
    const captions = [...this.state.captions, { ...caption, id: this.captionIds }];
    this.update({ captions: captions.slice(-MAX_CAPTIONS) });
  }

  private showPendingCaption(): void {
    const pending = this.pendingCaption;
    if (!pending) return;
    this.pendingCaption = null;
    this.addCaption({
      who: "persona",
      text: pending.text,
      ...(pending.interrupted ? { interrupted: true } : {}),
    });
  }

  private handle(message: VoiceServerMessage): void {
    switch (message.type) {
      case "call_started":
        if (message.resumed && this.state.startedAt !== null) {
          // The same call goes on: its clock and minute are the ones it had.
          this.update({
            reconnecting: false,
            creditsRemaining: message.creditsRemaining,
            creditsMinute: this.minuteNow(),
          });
          return;
        }
        this.callId = message.callId;
        this.update({
          status: "active",
          startedAt: this.now(),
          creditsPerMinute: message.creditsPerMinute,
          creditsRemaining: message.creditsRemaining,
          creditsMinute: 1,
          stt: message.stt,
        });
        return;
      case "transcription":
        this.showPendingCaption();
        this.update({
          transcript: { text: message.text, offline: message.offline === true },
          response: null,
        });
        if (message.text.trim()) {
          this.addCaption({
            who: "user",
            text: message.text,
            ...(message.offline ? { offline: true } : {}),
          });
        }
        return;
      case "response": {
        this.update({ response: message.text, thinking: false });
        this.showPendingCaption();
        this.pendingCaption = {
          replyId: message.replyId,
          text: message.text,
          interrupted: message.interrupted === true,
        };
        // Already playing (or cut short): the words are being (or were) spoken now.
        if (this.personaPlaying || message.interrupted) this.showPendingCaption();
        return;
      }
      case "audio_start":
        // A new reply supersedes what is still queued of an older one (the server cut it).
        if (this.playedReplyId !== null && this.playedReplyId !== message.replyId) {
          this.player?.stop();
          this.playedReplyId = null;
        }
        this.reply = { id: message.replyId, format: message.format };
        this.update({ thinking: false });
        return;
      case "audio_complete":
        if (this.reply?.id === message.replyId) this.reply = null;
        if (message.segments === 0) this.showPendingCaption();
        // Cut short on the server (a new utterance): drop what is queued of it.
        if (message.interrupted && this.playedReplyId === message.replyId) {
          this.player?.stop();
          this.playedReplyId = null;
        }
        return;
      case "error":
        this.showPendingCaption();
        this.lastServerError = message.message;
        if (this.state.status === "active") {
          this.update({ thinking: false });
          this.deps.notifyError(message.message);
        }
        return;
      case "credit_warning":
        this.update({
          warning: message.message,
          creditsRemaining: message.creditsRemaining,
          creditsMinute: this.minuteNow(),
        });
        this.deps.notifyWarning(message.message);
        return;
      case "call_ended":
        this.finish("ended", message.message);
        return;
      case "candidate_heard":
        if (message.candidateId === this.candidateId) this.mic?.hear?.(message.unfinished);
        return;
      case "notice":
        // Shown at once; its speech follows as a reply of its own (audio_start with its id).
        this.showPendingCaption();
        this.addCaption({ who: "notice", kind: message.kind, text: message.text });
        return;
    }
  }

  // ---- eager end of turn (decision 0042) ----

  private canSend(): SocketLike | null {
    const socket = this.socket;
    if (this.finished || this.state.status !== "active" || !socket || socket.readyState !== OPEN) {
      return null;
    }
    return socket;
  }

  /** The utterance so far, on a short pause: the server answers it but holds the answer. */
  private sendCandidate(blob: Blob): void {
    const socket = this.canSend();
    if (!socket || blob.size <= VOICE_MIN_UTTERANCE_BYTES) return;
    // The fan has a new turn: what is left of the persona's reply (waiting, or playing with
    // barge-in off) is dropped; the server cuts it on this candidate.
    this.dropReply();
    this.committed = null;
    this.candidates += 1;
    const candidateId = `c${this.candidates}`;
    this.candidateId = candidateId;
    socket.send(JSON.stringify({ type: "candidate", candidateId }));
    socket.send(blob);
  }

  /** The pause reached the end of the turn: the held answer comes now. */
  private commitCandidate(): void {
    const candidateId = this.candidateId;
    this.candidateId = null;
    const socket = this.canSend();
    if (!socket || candidateId === null) return;
    socket.send(JSON.stringify({ type: "commit", candidateId }));
    this.committed = { id: candidateId, played: false, captionsBefore: this.captionIds };
    this.update({ utterancesSent: this.state.utterancesSent + 1, thinking: true });
  }

  private cancelCandidate(): void {
    const candidateId = this.candidateId;
    this.candidateId = null;
    const socket = this.canSend();
    if (!socket || candidateId === null) return;
    socket.send(JSON.stringify({ type: "cancel", candidateId }));
  }

  /**
   * The fan went on speaking right after a commit, before any of its answer played: the
   * committed candidate is cancelled (the server drops its answer and stores nothing of it), its
   * caption goes, and the next candidate carries the whole utterance.
   */
  private continueCommitted(): boolean {
    const committed = this.committed;
    this.committed = null;
    const socket = this.canSend();
    if (!socket || !committed || committed.played || this.personaPlaying) return false;
    socket.send(JSON.stringify({ type: "cancel", candidateId: committed.id }));
    this.dropReply();
    this.update({
      thinking: false,
      captions: this.state.captions.filter((caption) => caption.id <= committed.captionsBefore),
    });
    return true;
  }

  private dropReply(): void {
    this.held = [];
    this.pendingCaption = null;
    if (this.reply || this.personaPlaying || this.playedReplyId) {
      this.reply = null;
      this.playedReplyId = null;
      this.player?.stop();
    }
  }

  private onClose(code: number): void {
    if (this.finished) return;
    if (this.state.status === "active" && this.callId !== null && !NOT_RESUMED.has(code)) {
      void this.reconnect();
    } else if (code === VOICE_CLOSE_CODES.normal) {
      this.finish("ended", this.lastServerError ?? CALL_TEXT.callEnded);
    } else if (code === VOICE_CLOSE_CODES.unauthorized) {
      this.fail(CALL_TEXT.sessionExpired);
    } else if (code === VOICE_CLOSE_CODES.insufficientCredits) {
      this.fail(this.lastServerError ?? CALL_TEXT.insufficientCredits);
    } else if (code === VOICE_CLOSE_CODES.voiceDisabled) {
      this.fail(this.lastServerError ?? CALL_TEXT.voiceDisabled);
    } else if (code === 1006) {
      this.fail(CALL_TEXT.connectionLost);
    } else {
      this.fail(this.lastServerError ?? CALL_TEXT.disconnectedUnexpectedly);
    }
  }

  // ---- audio ----

  private sendUtterance(blob: Blob): void {
    const socket = this.canSend();
    if (!socket) return;
    // Spec: only recordings larger than 1000 bytes are sent.
    if (blob.size <= VOICE_MIN_UTTERANCE_BYTES) return;
    socket.send(blob);
    this.update({ utterancesSent: this.state.utterancesSent + 1, thinking: true });
  }

  private bargeIn(): void {
    if (!this.personaPlaying && !this.reply) return;
    this.held = [];
    this.showPendingCaptionAsInterrupted();
    this.reply = null;
    this.playedReplyId = null;
    this.player?.stop();
    const socket = this.socket;
    if (socket && socket.readyState === OPEN) socket.send(JSON.stringify({ type: "interrupt" }));
  }

  private showPendingCaptionAsInterrupted(): void {
    if (this.pendingCaption) this.pendingCaption.interrupted = true;
    if (this.personaPlaying) this.showPendingCaption();
    else this.pendingCaption = null;
  }

  /** The minute of the call under way (1-based). */
  private minuteNow(): number {
    const started = this.state.startedAt;
    if (started === null) return 1;
    return Math.max(1, Math.ceil((this.now() - started) / 60_000));
  }

  private updateSpeaker(): void {
    const speaker: Speaker = this.userSpeaking ? "user" : this.personaPlaying ? "persona" : "none";
    if (speaker !== this.state.speaker) this.update({ speaker });
  }

  // ---- the end ----

  private fail(message: string): void {
    this.finish("error", message);
  }

  private finish(status: "ended" | "error", message: string): void {
    if (this.finished) return;
    this.finished = true;
    const startedAt = this.state.startedAt;
    const endedAt = this.now();
    this.update({
      status,
      error: status === "error" ? message : null,
      endedMessage: status === "ended" ? message : null,
      notice: null,
      endedAt,
      speaker: "none",
      thinking: false,
      reconnecting: false,
    });
    // Silence at once; the rest is released a moment later.
    this.mic?.stop();
    this.player?.stop();
    const socket = this.socket;
    if (socket && socket.readyState === OPEN) socket.close(VOICE_CLOSE_CODES.normal, "ended");
    void this.afterEnd(startedAt === null ? null : endedAt - startedAt);
  }

  private async afterEnd(durationMs: number | null): Promise<void> {
    await this.wait(CLEANUP_DELAY_MS);
    this.teardown();
    if (durationMs === null) return; // the call never started: nothing to close
    const duration = Math.max(0, Math.round(durationMs / 1000));
    const ok = await reportWithRetry(() => this.deps.reportEnd(duration), { wait: this.wait });
    if (!ok) this.deps.notifyError(CALL_TEXT.endFailed);
  }

  private teardown(): void {
    this.mic?.stop();
    this.mic = null;
    this.player?.close();
    this.player = null;
    if (this.socket) {
      this.socket.onmessage = this.socket.onclose = this.socket.onerror = null;
      this.socket = null;
    }
  }
}
