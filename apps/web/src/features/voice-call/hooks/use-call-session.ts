import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import toast from "react-hot-toast";
import { getCsrfToken } from "@/lib/api-client";
import { endCall, voiceSocketUrl } from "../api/voice-call";
import { openMicrophone } from "../audio/microphone";
import { openNeuralMicrophone } from "../audio/neural-microphone";
import { createAudioPlayer } from "../audio/player";
import {
  type CallDeps,
  CallSession,
  type CallState,
  INITIAL_CALL_STATE,
  type SocketLike,
} from "../call/call-session";
import { CREDIT_WARNING_MS } from "../call/policies";

/**
 * `?vad=level` on the call page runs the previous client (the loudness detector, one committed
 * utterance per turn, no eager end of turn): bench/voice-browser measures both in one run.
 */
function levelDetectorAsked(): boolean {
  return (
    typeof location !== "undefined" && new URLSearchParams(location.search).get("vad") === "level"
  );
}

/**
 * `?turn=eager` runs the eager client as it was before issue 24 (decision 0053): the commit never
 * waits for unfinished words and speech after a commit is always a new turn, so
 * bench/voice-browser measures the hesitation rule against it in the same run.
 */
function eagerOnlyAsked(): boolean {
  return (
    typeof location !== "undefined" && new URLSearchParams(location.search).get("turn") === "eager"
  );
}

/** The browser's socket, microphone, speakers and the REST end report. */
function browserDeps(csrf: string | null, audio: AudioContext | null): CallDeps {
  const level = levelDetectorAsked();
  const turnOptions = eagerOnlyAsked() ? { unfinishedCommitMs: 704, continueMs: -1 } : {};
  return {
    socketUrl: () => voiceSocketUrl(csrf),
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    supportsWebSocket: () => typeof WebSocket !== "undefined",
    openMicrophone: (handlers, options) =>
      level
        ? openMicrophone(handlers, options, {}, audio)
        : openNeuralMicrophone(handlers, options, turnOptions, audio),
    createPlayer: (handlers) => createAudioPlayer(handlers, audio),
    reportEnd: (duration) => endCall(duration),
    notifyError: (message) => toast.error(message),
    notifyWarning: (message) =>
      toast(message, { duration: CREDIT_WARNING_MS, icon: "⚠️", id: "credit-warning" }),
  };
}

const noSubscription = () => () => {};
const initialState = () => INITIAL_CALL_STATE;

export interface UseCallSession {
  state: CallState;
  /** True from Start until the overlay is closed. */
  open: boolean;
  /** `audio`: the context unlocked in the Start click (see audio/context.ts). */
  start: (audio?: AudioContext | null) => Promise<void>;
  hangUp: () => void;
  toggleMute: () => void;
  setBargeIn: (enabled: boolean) => void;
  /** Closes the overlay after the call ended. */
  close: () => void;
}

/**
 * One call at a time for the start screen. `deps` replaces the browser's devices (tests).
 * Leaving the screen hangs up.
 */
export function useCallSession(
  makeDeps: (csrf: string | null, audio: AudioContext | null) => CallDeps = browserDeps,
): UseCallSession {
  const [session, setSession] = useState<CallSession | null>(null);
  const state = useSyncExternalStore(
    session?.subscribe ?? noSubscription,
    session?.getState ?? initialState,
    session?.getState ?? initialState,
  );

  // Unmounting hangs up; the dispose is deferred so StrictMode's remount can cancel it.
  const pendingDispose = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (!session) return;
    if (pendingDispose.current) clearTimeout(pendingDispose.current);
    pendingDispose.current = null;
    const onPageHide = () => session.dispose();
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      pendingDispose.current = setTimeout(() => session.dispose(), 0);
    };
  }, [session]);

  // The call's audio context, closed with the overlay whatever happened to the call.
  const audioRef = useRef<AudioContext | null>(null);
  const start = useCallback(
    async (audio: AudioContext | null = null) => {
      audioRef.current = audio;
      const csrf = await getCsrfToken().catch(() => null);
      const next = new CallSession(makeDeps(csrf, audio));
      setSession(next);
      await next.start();
    },
    [makeDeps],
  );

  return {
    state,
    open: session !== null,
    start,
    hangUp: useCallback(() => session?.hangUp(), [session]),
    toggleMute: useCallback(() => session?.toggleMute(), [session]),
    setBargeIn: useCallback((enabled: boolean) => session?.setBargeIn(enabled), [session]),
    close: useCallback(() => {
      session?.dispose();
      if (audioRef.current && audioRef.current.state !== "closed") {
        void audioRef.current.close().catch(() => undefined);
      }
      audioRef.current = null;
      setSession(null);
    }, [session]),
  };
}
