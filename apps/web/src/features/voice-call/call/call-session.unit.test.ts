import { VOICE_CLOSE_CODES, VOICE_MESSAGES, voiceSocketAddress } from "@twinline/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CALL_TEXT } from "../messages";
import {
  type CallDeps,
  CallSession,
  type MicrophoneHandlers,
  type MicrophoneLike,
  type PlayerHandlers,
  type PlayerLike,
  RecordingUnsupportedError,
  type SocketLike,
} from "./call-session";

const SOCKET_URL = `ws://test${voiceSocketAddress.path}?token=t`;

/** A WebSocket the test opens, feeds and closes by hand. */
class FakeSocket implements SocketLike {
  binaryType: BinaryType = "blob";
  readyState = 0;
  onopen: SocketLike["onopen"] = null;
  onclose: SocketLike["onclose"] = null;
  onerror: SocketLike["onerror"] = null;
  onmessage: SocketLike["onmessage"] = null;
  sent: (string | Blob | ArrayBuffer)[] = [];
  closedWith: number | null = null;
  constructor(readonly url: string) {}
  send(data: string | Blob | ArrayBuffer) {
    this.sent.push(data);
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  // test side
  open() {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  serverSends(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  serverSendsAudio(bytes: number) {
    this.onmessage?.({ data: new ArrayBuffer(bytes) });
  }
  serverCloses(code: number) {
    this.readyState = 3;
    this.onclose?.({ code, reason: "" });
  }
  json() {
    return this.sent.filter((m): m is string => typeof m === "string").map((m) => JSON.parse(m));
  }
}

function setup(overrides: Partial<CallDeps> = {}) {
  const sockets: FakeSocket[] = [];
  let micHandlers!: MicrophoneHandlers;
  let playerHandlers!: PlayerHandlers;
  const mic = {
    setMuted: vi.fn(),
    setPersonaSpeaking: vi.fn(),
    setBargeIn: vi.fn(),
    stop: vi.fn(),
  } satisfies MicrophoneLike;
  const player = {
    play: vi.fn(),
    stop: vi.fn(),
    close: vi.fn(),
  } satisfies PlayerLike;
  const deps: CallDeps = {
    socketUrl: () => SOCKET_URL,
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    supportsWebSocket: () => true,
    openMicrophone: async (handlers) => {
      micHandlers = handlers;
      return mic;
    },
    createPlayer: (handlers) => {
      playerHandlers = handlers;
      return player;
    },
    reportEnd: vi.fn(async () => ({})),
    notifyError: vi.fn(),
    notifyWarning: vi.fn(),
    ...overrides,
  };
  const session = new CallSession(deps);
  return {
    session,
    deps,
    sockets,
    mic,
    player,
    micHandlers: () => micHandlers,
    playerHandlers: () => playerHandlers,
    socket: () => sockets.at(-1) as FakeSocket,
  };
}

const STARTED = {
  type: "call_started",
  callId: "call-1",
  creditsPerMinute: 5,
  creditsRemaining: 45,
  stt: "openai",
  tts: "offline",
};

/** Starts a call and lets the first socket open and the server accept it. */
async function activeCall(t: ReturnType<typeof setup>) {
  const started = t.session.start();
  await vi.advanceTimersByTimeAsync(0);
  t.socket().open();
  t.socket().serverSends(STARTED);
  await started;
  return t.socket();
}

const speech = (bytes: number) => new Blob([new Uint8Array(bytes)], { type: "audio/webm" });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("call session: connecting", () => {
  it("becomes active once the socket opens and the server starts the call", async () => {
    const t = setup();
    const started = t.session.start();
    expect(t.session.getState().status).toBe("connecting");
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket().url).toBe(SOCKET_URL);
    t.socket().open();
    expect(t.socket().binaryType).toBe("arraybuffer");
    t.socket().serverSends(STARTED);
    await started;
    const state = t.session.getState();
    expect(state.status).toBe("active");
    expect(state.creditsRemaining).toBe(45);
    expect(state.creditsPerMinute).toBe(5);
    expect(state.startedAt).not.toBeNull();
  });

  it("says so when the browser has no WebSocket", async () => {
    const t = setup({ supportsWebSocket: () => false });
    await t.session.start();
    expect(t.session.getState()).toMatchObject({ status: "error", error: CALL_TEXT.noWebSocket });
    expect(t.sockets).toHaveLength(0);
  });

  it("says so when the browser cannot record", async () => {
    const t = setup({
      openMicrophone: async () => {
        throw new RecordingUnsupportedError("no MediaRecorder");
      },
    });
    await t.session.start();
    expect(t.session.getState().error).toBe("Your browser does not support audio recording");
    expect(t.sockets).toHaveLength(0);
  });

  it("says so when the microphone is refused, before any socket is opened", async () => {
    const t = setup({
      openMicrophone: async () => {
        throw new DOMException("denied", "NotAllowedError");
      },
    });
    await t.session.start();
    expect(t.session.getState()).toMatchObject({
      status: "error",
      error: "Could not access microphone. Please check your device permissions.",
    });
    expect(t.sockets).toHaveLength(0);
  });

  it("retries a failed connection twice, 1 s apart, each attempt given 5 s", async () => {
    const t = setup();
    const started = t.session.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.sockets).toHaveLength(1);
    // Attempt 1: refused at once.
    t.socket().serverCloses(1006);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.session.getState().notice).toBe("Connection error. Please try again.");
    await vi.advanceTimersByTimeAsync(999);
    expect(t.sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.sockets).toHaveLength(2);
    // Attempt 2: never answers; given up after 5 s.
    await vi.advanceTimersByTimeAsync(4_999);
    expect(t.sockets[1]?.closedWith).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(t.sockets[1]?.closedWith).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(t.sockets).toHaveLength(3);
    // Attempt 3 opens: the call goes on.
    t.socket().open();
    t.socket().serverSends(STARTED);
    await started;
    expect(t.session.getState()).toMatchObject({ status: "active", notice: null });
  });

  it("gives up with Something went wrong after three failed attempts", async () => {
    const t = setup();
    const started = t.session.start();
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(0);
      t.socket().serverCloses(1006);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    await started;
    expect(t.sockets).toHaveLength(3);
    expect(t.session.getState()).toMatchObject({ status: "error", error: "Something went wrong" });
    // The microphone is released; nothing was charged, so nothing is reported.
    expect(t.mic.stop).toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.deps.reportEnd).not.toHaveBeenCalled();
  });

  it("shows the server's refusal (low credits) from the error before the close", async () => {
    const t = setup();
    const started = t.session.start();
    await vi.advanceTimersByTimeAsync(0);
    t.socket().open();
    t.socket().serverSends({ type: "error", message: "Insufficient credits for voice call" });
    t.socket().serverCloses(4402);
    await started;
    expect(t.session.getState()).toMatchObject({
      status: "error",
      error: "Insufficient credits for voice call",
    });
    expect(t.deps.notifyError).not.toHaveBeenCalled();
  });

  it("a call already in progress elsewhere is a refusal: shown, not retried", async () => {
    const t = setup();
    const started = t.session.start();
    await vi.advanceTimersByTimeAsync(0);
    t.socket().open();
    t.socket().serverSends({ type: "error", message: VOICE_MESSAGES.callInProgress });
    t.socket().serverCloses(VOICE_CLOSE_CODES.callInProgress);
    await started;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.sockets).toHaveLength(1);
    expect(t.session.getState()).toMatchObject({
      status: "error",
      error: VOICE_MESSAGES.callInProgress,
    });
  });

  it("hanging up while connecting stops trying", async () => {
    const t = setup();
    const started = t.session.start();
    await vi.advanceTimersByTimeAsync(0);
    t.socket().serverCloses(1006);
    t.session.hangUp();
    await vi.advanceTimersByTimeAsync(2_000);
    await started;
    expect(t.sockets).toHaveLength(1);
    expect(t.session.getState().status).toBe("ended");
  });
});

describe("call session: during the call", () => {
  it("sends utterances over 1000 bytes only, and shows transcription and response", async () => {
    const t = setup();
    const socket = await activeCall(t);
    t.micHandlers().onUtterance(speech(1000));
    expect(socket.sent).toHaveLength(0);
    t.micHandlers().onUtterance(speech(4000));
    expect(socket.sent).toHaveLength(1);
    expect(socket.sent[0]).toBeInstanceOf(Blob);
    expect(t.session.getState().thinking).toBe(true);

    socket.serverSends({ type: "transcription", text: "Hello there" });
    expect(t.session.getState().transcript).toEqual({ text: "Hello there", offline: false });
    socket.serverSends({ type: "response", text: "Hi! Nice to hear you." });
    expect(t.session.getState()).toMatchObject({
      response: "Hi! Nice to hear you.",
      thinking: false,
    });
  });

  it("marks an offline transcription", async () => {
    const t = setup();
    const socket = await activeCall(t);
    socket.serverSends({
      type: "transcription",
      text: CALL_TEXT.offlineTranscription,
      offline: true,
    });
    expect(t.session.getState().transcript?.offline).toBe(true);
  });

  it("plays each audio frame of a reply in order, in the announced format", async () => {
    const t = setup();
    const socket = await activeCall(t);
    socket.serverSendsAudio(500); // no reply announced: ignored
    socket.serverSends({ type: "audio_start", replyId: "r1", format: "audio/wav" });
    socket.serverSendsAudio(1200);
    socket.serverSendsAudio(800);
    socket.serverSends({ type: "audio_complete", replyId: "r1", segments: 2 });
    expect(t.player.play).toHaveBeenCalledTimes(2);
    expect(t.player.play.mock.calls.map(([bytes, format]) => [bytes.byteLength, format])).toEqual([
      [1200, "audio/wav"],
      [800, "audio/wav"],
    ]);
    t.playerHandlers().onPlaying(true);
    expect(t.session.getState().speaker).toBe("persona");
    expect(t.mic.setPersonaSpeaking).toHaveBeenLastCalledWith(true);
    t.playerHandlers().onPlaying(false);
    expect(t.session.getState().speaker).toBe("none");
  });

  it("barge-in stops the persona's audio, tells the server and drops the rest of the reply", async () => {
    const t = setup();
    const socket = await activeCall(t);
    socket.serverSends({ type: "audio_start", replyId: "r1", format: "audio/mpeg" });
    socket.serverSendsAudio(1200);
    t.playerHandlers().onPlaying(true);
    t.micHandlers().onSpeech(true);
    t.micHandlers().onBargeIn();
    expect(t.player.stop).toHaveBeenCalled();
    expect(socket.json()).toEqual([{ type: "interrupt" }]);
    expect(t.session.getState().speaker).toBe("user");
    socket.serverSendsAudio(900); // still in flight
    expect(t.player.play).toHaveBeenCalledTimes(1);
  });

  it("a reply that cannot be played says so", async () => {
    const t = setup();
    await activeCall(t);
    t.playerHandlers().onError();
    expect(t.deps.notifyError).toHaveBeenCalledWith("Failed to play audio response");
    expect(t.session.getState().status).toBe("active");
  });

  it("drops what is queued of a reply the server cut short, or one a newer reply supersedes", async () => {
    const t = setup();
    const socket = await activeCall(t);
    socket.serverSends({ type: "audio_start", replyId: "r1", format: "audio/wav" });
    socket.serverSendsAudio(1200);
    socket.serverSends({ type: "audio_complete", replyId: "r1", segments: 1 });
    expect(t.player.stop).not.toHaveBeenCalled();
    // The next reply (to a newer utterance) starts: what may still play of r1 is stale…
    socket.serverSends({ type: "audio_start", replyId: "r2", format: "audio/wav" });
    expect(t.player.stop).toHaveBeenCalledTimes(1);
    socket.serverSendsAudio(1500);
    // …and a reply the server marks interrupted is silenced.
    socket.serverSends({ type: "audio_complete", replyId: "r2", segments: 1, interrupted: true });
    expect(t.player.stop).toHaveBeenCalledTimes(2);
    expect(t.player.play).toHaveBeenCalledTimes(2);
  });

  it("a barge-in with nothing playing sends nothing", async () => {
    const t = setup();
    const socket = await activeCall(t);
    t.micHandlers().onBargeIn();
    expect(socket.sent).toHaveLength(0);
  });

  it("mute toggles the microphone", async () => {
    const t = setup();
    await activeCall(t);
    t.session.toggleMute();
    expect(t.mic.setMuted).toHaveBeenLastCalledWith(true);
    expect(t.session.getState().muted).toBe(true);
    t.session.toggleMute();
    expect(t.mic.setMuted).toHaveBeenLastCalledWith(false);
  });

  it("a credit warning is shown and updates the balance; an error becomes a toast", async () => {
    const t = setup();
    const socket = await activeCall(t);
    await vi.advanceTimersByTimeAsync(130_000);
    socket.serverSends({ type: "credit_warning", message: "Low", creditsRemaining: 3 });
    expect(t.deps.notifyWarning).toHaveBeenCalledWith("Low");
    // The balance as of the third minute.
    expect(t.session.getState()).toMatchObject({
      warning: "Low",
      creditsRemaining: 3,
      creditsMinute: 3,
    });
    socket.serverSends({ type: "error", message: "Failed to process your message" });
    expect(t.deps.notifyError).toHaveBeenCalledWith("Failed to process your message");
    expect(t.session.getState().status).toBe("active");
  });

  it("ignores frames that are not the contract's messages", async () => {
    const t = setup();
    const socket = await activeCall(t);
    socket.onmessage?.({ data: "not json" });
    socket.serverSends({ type: "mystery" });
    expect(t.session.getState().status).toBe("active");
  });
});

describe("call session: the end", () => {
  it("call_ended ends the call with its message; cleanup 1.5 s later; the duration is reported", async () => {
    const t = setup();
    const socket = await activeCall(t);
    await vi.advanceTimersByTimeAsync(61_400);
    socket.serverSends({
      type: "call_ended",
      message: "Your credits have run out. The call has ended.",
    });
    expect(t.session.getState()).toMatchObject({
      status: "ended",
      endedMessage: "Your credits have run out. The call has ended.",
    });
    expect(t.mic.stop).toHaveBeenCalled();
    expect(t.player.close).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_499);
    expect(t.player.close).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(t.player.close).toHaveBeenCalled();
    expect(t.deps.reportEnd).toHaveBeenCalledWith(61);
  });

  it("hang-up sends end, closes with 1000 and reports the duration", async () => {
    const t = setup();
    const socket = await activeCall(t);
    await vi.advanceTimersByTimeAsync(12_000);
    t.session.hangUp();
    expect(socket.json()).toEqual([{ type: "end" }]);
    expect(socket.closedWith).toBe(1000);
    expect(t.session.getState().status).toBe("ended");
    await vi.advanceTimersByTimeAsync(1_500);
    expect(t.deps.reportEnd).toHaveBeenCalledWith(12);
  });

  it.each([
    [1000, "ended", null],
    [4401, "error", "Your session has expired. Please log in again."],
  ] as const)("a close with code %i: %s", async (code, status, error) => {
    const t = setup();
    const socket = await activeCall(t);
    socket.serverCloses(code);
    expect(t.session.getState()).toMatchObject({ status, error });
  });

  it("retries the end report with back-off 1 s, 2 s, then says it failed", async () => {
    const reportEnd = vi.fn(async () => {
      throw new Error("offline");
    });
    const t = setup({ reportEnd });
    await activeCall(t);
    await vi.advanceTimersByTimeAsync(5_000);
    t.session.hangUp();
    await vi.advanceTimersByTimeAsync(1_500);
    expect(reportEnd).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(reportEnd).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reportEnd).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(reportEnd).toHaveBeenCalledTimes(2);
    expect(t.deps.notifyError).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reportEnd).toHaveBeenCalledTimes(3);
    expect(t.deps.notifyError).toHaveBeenCalledWith("Failed to update call record");
    await vi.advanceTimersByTimeAsync(30_000);
    expect(reportEnd).toHaveBeenCalledTimes(3);
  });

  it("an end report that succeeds on the second try says nothing", async () => {
    const reportEnd = vi.fn().mockRejectedValueOnce(new Error("503")).mockResolvedValue({});
    const t = setup({ reportEnd });
    await activeCall(t);
    t.session.hangUp();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reportEnd).toHaveBeenCalledTimes(2);
    expect(t.deps.notifyError).not.toHaveBeenCalled();
  });

  it("utterances after the end are not sent", async () => {
    const t = setup();
    const socket = await activeCall(t);
    t.session.hangUp();
    t.micHandlers().onUtterance(speech(5000));
    expect(socket.sent.filter((m) => m instanceof Blob)).toHaveLength(0);
  });
});

describe("call session: eager end of turn and turn-taking", () => {
  const wav = (bytes: number) => new Blob([new Uint8Array(bytes)], { type: "audio/wav" });

  it("a candidate goes up with its id before its audio; the commit names it; a cancel too", async () => {
    const t = setup();
    const socket = await activeCall(t);
    t.micHandlers().onSpeech(true);
    t.micHandlers().onCandidate(wav(4000));
    expect(socket.json().at(-1)).toEqual({ type: "candidate", candidateId: "c1" });
    expect((socket.sent.at(-1) as Blob).size).toBe(4000);
    t.micHandlers().onCancel();
    expect(socket.json().at(-1)).toEqual({ type: "cancel", candidateId: "c1" });
    t.micHandlers().onCandidate(wav(6000));
    t.micHandlers().onCommit();
    expect(socket.json().slice(-2)).toEqual([
      { type: "candidate", candidateId: "c2" },
      { type: "commit", candidateId: "c2" },
    ]);
    expect(t.session.getState()).toMatchObject({ utterancesSent: 1, thinking: true });
    // A commit or cancel with no candidate pending sends nothing.
    const sent = socket.sent.length;
    t.micHandlers().onCommit();
    t.micHandlers().onCancel();
    expect(socket.sent).toHaveLength(sent);
  });

  it("a reply never starts while the fan speaks: it waits, and plays when they stop without a new turn", async () => {
    const t = setup();
    const socket = await activeCall(t);
    t.micHandlers().onSpeech(true);
    socket.serverSends({ type: "audio_start", replyId: "r1", format: "audio/wav" });
    socket.serverSendsAudio(3000);
    expect(t.player.play).not.toHaveBeenCalled();
    t.micHandlers().onMisfire();
    t.micHandlers().onSpeech(false);
    expect(t.player.play).toHaveBeenCalledTimes(1);
  });

  it("a reply waiting while the fan speaks is dropped when their words become a new turn", async () => {
    const t = setup();
    const socket = await activeCall(t);
    t.micHandlers().onSpeech(true);
    socket.serverSends({ type: "audio_start", replyId: "r1", format: "audio/wav" });
    socket.serverSendsAudio(3000);
    t.micHandlers().onCandidate(wav(4000));
    t.micHandlers().onCommit();
    t.micHandlers().onSpeech(false);
    socket.serverSendsAudio(3000); // still in flight from the cut reply
    expect(t.player.play).not.toHaveBeenCalled();
  });

  it("the captions keep both sides in order; the persona's words show once they are spoken", async () => {
    const t = setup();
    const socket = await activeCall(t);
    socket.serverSends({ type: "transcription", text: "Hi there" });
    socket.serverSends({ type: "response", text: "Hello, lovely to hear you.", replyId: "r1" });
    expect(t.session.getState().captions.map((c) => c.who)).toEqual(["user"]);
    socket.serverSends({ type: "audio_start", replyId: "r1", format: "audio/wav" });
    socket.serverSendsAudio(3000);
    t.playerHandlers().onPlaying(true);
    socket.serverSends({ type: "transcription", text: "Tell me more" });
    expect(t.session.getState().captions.map((c) => ({ who: c.who, text: c.text }))).toEqual([
      { who: "user", text: "Hi there" },
      { who: "persona", text: "Hello, lovely to hear you." },
      { who: "user", text: "Tell me more" },
    ]);
  });

  it("the product's AI notice is a caption of its own at once, and its speech plays as a reply", async () => {
    const t = setup();
    const socket = await activeCall(t);
    const text =
      "AI Celebrity Assistant is an AI and not a human being. It cannot feel human emotion.";
    socket.serverSends({ type: "notice", kind: "ai-notice", text, replyId: "n1" });
    expect(t.session.getState().captions).toMatchObject([
      { who: "notice", kind: "ai-notice", text },
    ]);
    socket.serverSends({ type: "audio_start", replyId: "n1", format: "audio/wav" });
    socket.serverSendsAudio(3000);
    socket.serverSends({ type: "audio_complete", replyId: "n1", segments: 1 });
    expect(t.player.play).toHaveBeenCalledTimes(1);
    // The persona's own words follow as usual.
    socket.serverSends({ type: "transcription", text: "Hi there" });
    expect(t.session.getState().captions.map((c) => c.who)).toEqual(["notice", "user"]);
  });

  it("barge-in marks the persona's line as interrupted", async () => {
    const t = setup();
    const socket = await activeCall(t);
    socket.serverSends({ type: "audio_start", replyId: "r1", format: "audio/wav" });
    socket.serverSendsAudio(3000);
    t.playerHandlers().onPlaying(true);
    socket.serverSends({ type: "response", text: "A long story begins", replyId: "r1" });
    t.micHandlers().onSpeech(true);
    t.micHandlers().onBargeIn();
    expect(t.player.stop).toHaveBeenCalled();
    expect(socket.json().at(-1)).toEqual({ type: "interrupt" });
    expect(t.session.getState().captions.at(-1)).toMatchObject({ who: "persona" });
  });
});

describe("call session: hesitant speech (issue 24)", () => {
  const wav = (bytes: number) => new Blob([new Uint8Array(bytes)], { type: "audio/wav" });

  it("tells the microphone whether the pending candidate's words are unfinished, and only that candidate's", async () => {
    const hear = vi.fn();
    const t = setup();
    const mic = { ...t.mic, hear };
    t.deps.openMicrophone = async (handlers) => {
      t.micHandlers = () => handlers;
      return mic;
    };
    const socket = await activeCall(t);
    t.micHandlers().onSpeech(true);
    t.micHandlers().onCandidate(wav(4000));
    socket.serverSends({ type: "candidate_heard", candidateId: "c0", unfinished: true });
    expect(hear).not.toHaveBeenCalled();
    socket.serverSends({ type: "candidate_heard", candidateId: "c1", unfinished: true });
    expect(hear).toHaveBeenCalledWith(true);
  });

  it("the fan going on right after a commit takes the turn back: the committed candidate is cancelled, its answer and caption dropped", async () => {
    const t = setup();
    const socket = await activeCall(t);
    t.micHandlers().onSpeech(true);
    t.micHandlers().onCandidate(wav(4000));
    t.micHandlers().onCommit();
    t.micHandlers().onSpeech(false);
    // The fragment's answer comes (the fan speaks again before it plays).
    socket.serverSends({ type: "transcription", text: "I was thinking about" });
    t.micHandlers().onSpeech(true);
    socket.serverSends({ type: "audio_start", replyId: "r1", format: "audio/wav" });
    socket.serverSendsAudio(3000);
    expect(t.micHandlers().onContinue()).toBe(true);
    expect(socket.json().at(-1)).toEqual({ type: "cancel", candidateId: "c1" });
    expect(t.session.getState().captions).toEqual([]);
    // The fragment's held audio never plays; the whole utterance is the next candidate.
    t.micHandlers().onCandidate(wav(9000));
    t.micHandlers().onCommit();
    t.micHandlers().onSpeech(false);
    expect(t.player.play).not.toHaveBeenCalled();
    expect(socket.json().slice(-2)).toEqual([
      { type: "candidate", candidateId: "c2" },
      { type: "commit", candidateId: "c2" },
    ]);
  });

  it("once the answer played, speech after the commit is a new turn", async () => {
    const t = setup();
    const socket = await activeCall(t);
    t.micHandlers().onSpeech(true);
    t.micHandlers().onCandidate(wav(4000));
    t.micHandlers().onCommit();
    t.micHandlers().onSpeech(false);
    socket.serverSends({ type: "audio_start", replyId: "r1", format: "audio/wav" });
    socket.serverSendsAudio(3000);
    expect(t.player.play).toHaveBeenCalledTimes(1);
    const sent = socket.sent.length;
    expect(t.micHandlers().onContinue()).toBe(false);
    expect(socket.sent).toHaveLength(sent);
  });
});

describe("call session: a dropped connection (issue 24)", () => {
  const resumeOf = (socket: FakeSocket) => new URL(socket.url).searchParams.get("resume");

  it("is taken up again: Reconnecting…, then the same call goes on, its clock and minute unchanged", async () => {
    const t = setup();
    const first = await activeCall(t);
    const startedAt = t.session.getState().startedAt;
    await vi.advanceTimersByTimeAsync(12_000);
    first.serverCloses(1006);
    expect(t.session.getState()).toMatchObject({ status: "active", reconnecting: true });
    // Nothing goes up while the connection is down.
    t.micHandlers().onUtterance(speech(5000));
    await vi.advanceTimersByTimeAsync(250);
    expect(t.sockets).toHaveLength(2);
    const second = t.socket();
    expect(resumeOf(second)).toBe("call-1");
    second.open();
    second.serverSends({ ...STARTED, creditsRemaining: 45, resumed: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.session.getState()).toMatchObject({
      status: "active",
      reconnecting: false,
      startedAt,
      creditsRemaining: 45,
      creditsMinute: 1,
    });
    expect(first.sent.filter((m) => m instanceof Blob)).toHaveLength(0);
    t.micHandlers().onUtterance(speech(5000));
    expect(second.sent.filter((m) => m instanceof Blob)).toHaveLength(1);
    // The call's time runs through the drop: one call, reported whole.
    await vi.advanceTimersByTimeAsync(8_000);
    t.session.hangUp();
    expect(second.json().at(-1)).toEqual({ type: "end" });
    await vi.advanceTimersByTimeAsync(1_500);
    expect(t.deps.reportEnd).toHaveBeenCalledWith(20);
  });

  it("backs off between attempts inside the server's 15 s grace, then says the connection was lost", async () => {
    const t = setup();
    const first = await activeCall(t);
    first.serverCloses(1006);
    const attemptsAt: number[] = [];
    const began = Date.now();
    for (let waited = 0; waited < 20_000; waited += 50) {
      await vi.advanceTimersByTimeAsync(50);
      const latest = t.socket();
      if (latest !== first && latest.readyState === 0) {
        attemptsAt.push(Date.now() - began);
        latest.serverCloses(1006);
      }
    }
    expect(attemptsAt).toEqual([250, 750, 1750, 3750, 7750, 11750]);
    expect(t.sockets.slice(1).every((socket) => resumeOf(socket) === "call-1")).toBe(true);
    expect(t.session.getState()).toMatchObject({
      status: "error",
      reconnecting: false,
      error: "Connection lost unexpectedly",
    });
  });

  it("stops at once when the server no longer has the call: no new call is started", async () => {
    const t = setup();
    const first = await activeCall(t);
    first.serverCloses(1006);
    await vi.advanceTimersByTimeAsync(250);
    const second = t.socket();
    second.open();
    second.serverSends({ type: "error", message: "Connection lost unexpectedly" });
    second.serverCloses(4404);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(t.sockets).toHaveLength(2);
    expect(t.session.getState()).toMatchObject({
      status: "error",
      error: "Connection lost unexpectedly",
    });
  });

  it("hanging up while reconnecting ends the call and reports it; no socket is opened after", async () => {
    const t = setup();
    const first = await activeCall(t);
    await vi.advanceTimersByTimeAsync(5_000);
    first.serverCloses(1006);
    t.session.hangUp();
    expect(t.session.getState().status).toBe("ended");
    await vi.advanceTimersByTimeAsync(20_000);
    expect(t.sockets).toHaveLength(1);
    expect(t.deps.reportEnd).toHaveBeenCalledWith(5);
  });
});

describe("call session: connection manners", () => {
  it("a socket that opens but never starts the call is retried after 10 s, then Something went wrong", async () => {
    const t = setup();
    const started = t.session.start();
    for (let attempt = 1; attempt <= 3; attempt++) {
      await vi.advanceTimersByTimeAsync(0);
      expect(t.sockets).toHaveLength(attempt);
      t.socket().open();
      await vi.advanceTimersByTimeAsync(9_999);
      expect(t.socket().closedWith).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      expect(t.socket().closedWith).not.toBeNull();
      if (attempt < 3) {
        expect(t.session.getState().notice).toBe(CALL_TEXT.connectionError);
        await vi.advanceTimersByTimeAsync(1_000);
      }
    }
    await started;
    expect(t.session.getState()).toMatchObject({ status: "error", error: "Something went wrong" });
  });

  it("a refused token is not retried: the session has expired", async () => {
    const t = setup();
    const started = t.session.start();
    await vi.advanceTimersByTimeAsync(0);
    t.socket().open();
    t.socket().serverSends({ type: "error", message: CALL_TEXT.sessionExpired });
    t.socket().serverCloses(4401);
    await started;
    expect(t.sockets).toHaveLength(1);
    expect(t.session.getState()).toMatchObject({
      status: "error",
      error: CALL_TEXT.sessionExpired,
    });
  });
});
