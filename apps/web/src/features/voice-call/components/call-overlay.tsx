import { PRODUCT_KIND_LABELS } from "@twinline/contracts";
import { clsx } from "clsx";
import { AlertTriangle, Mic, MicOff, PhoneOff, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { AiMarker } from "@/components/ui/ai-marker";
import { UserAvatar } from "@/components/ui/user-avatar";
import type { CallState, Caption } from "../call/call-session";
import { currentBalance, formatClock, remainingSeconds } from "../call/policies";
import { CALL_TEXT } from "../messages";

const STATUS_TEXT: Record<CallState["status"], string> = {
  idle: "Connecting…",
  connecting: "Connecting…",
  active: "Connected",
  error: "Call failed",
  ended: "Call ended",
};

/** Re-renders every second while `running`, returning Date.now(). */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

export interface CallOverlayProps {
  state: CallState;
  personaName: string;
  personaImage?: string | null;
  onHangUp: () => void;
  onToggleMute: () => void;
  onBargeInChange: (enabled: boolean) => void;
  onClose: () => void;
}

/**
 * The full-screen call: status, live timer, time left, who speaks, what was heard and answered,
 * mute and hang-up (large, thumb-reachable, clear of the phone's safe areas). The controls never
 * leave the screen: on a short phone (360×740) the captions give up their height, not Hang up.
 */
export function CallOverlay({
  state,
  personaName,
  personaImage,
  onHangUp,
  onToggleMute,
  onBargeInChange,
  onClose,
}: CallOverlayProps) {
  const live = state.status === "active";
  // The connection dropped: the call (and its clock) goes on while it is taken up again.
  const reconnecting = live && state.reconnecting;
  const over = state.status === "ended" || state.status === "error";
  const now = useNow(live);
  const elapsed =
    state.startedAt === null
      ? 0
      : Math.max(0, Math.floor(((over ? (state.endedAt ?? now) : now) - state.startedAt) / 1000));
  const balanceAt =
    state.creditsRemaining !== null && state.creditsPerMinute
      ? {
          elapsedSeconds: elapsed,
          balance: state.creditsRemaining,
          balanceMinute: state.creditsMinute,
          creditsPerMinute: state.creditsPerMinute,
        }
      : null;
  const left = balanceAt ? remainingSeconds(balanceAt) : null;
  const balance = balanceAt ? currentBalance(balanceAt) : null;

  const hangUpRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    (over ? closeRef : hangUpRef).current?.focus();
  }, [over]);

  // A modal call: the page behind neither scrolls nor takes focus or clicks.
  useEffect(() => {
    const previous = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    const app = document.getElementById("root");
    const wasInert = app?.inert ?? false;
    if (app) app.inert = true;
    return () => {
      document.body.style.overflow = previous;
      if (app) app.inert = wasInert;
    };
  }, []);

  const speakerText = reconnecting
    ? ""
    : state.speaker === "user"
      ? "You are speaking"
      : state.speaker === "persona"
        ? `${personaName} is speaking`
        : state.thinking
          ? `${personaName} is thinking…`
          : live
            ? state.muted
              ? "Microphone muted"
              : "Listening…"
            : "";

  return createPortal(
    <div
      role="dialog"
      aria-modal="true"
      aria-label={`Call with ${personaName}`}
      data-testid="call-overlay"
      data-status={state.status}
      className="fixed inset-0 z-50 flex flex-col overflow-y-auto bg-gradient-to-b from-stone-950 via-stone-900 to-brand-900 text-white"
      style={{
        paddingTop: "max(1rem, env(safe-area-inset-top))",
        paddingBottom: "max(1.25rem, env(safe-area-inset-bottom))",
        paddingLeft: "max(1rem, env(safe-area-inset-left))",
        paddingRight: "max(1rem, env(safe-area-inset-right))",
      }}
    >
      <header className="flex items-center justify-between gap-3">
        <p
          role="status"
          data-testid="call-status"
          className={clsx(
            "rounded-full px-3 py-1 text-sm font-medium",
            live && !reconnecting && "bg-emerald-500/15 text-emerald-300",
            reconnecting && "bg-amber-500/15 text-amber-300",
            state.status === "error" && "bg-red-500/15 text-red-300",
            !live && state.status !== "error" && "bg-white/10 text-white/80",
          )}
        >
          {reconnecting ? CALL_TEXT.reconnecting : STATUS_TEXT[state.status]}
        </p>
        <p className="font-mono text-lg tabular-nums" data-testid="call-timer">
          <span className="sr-only">Call time </span>
          {formatClock(elapsed)}
        </p>
      </header>

      <div className="flex min-h-0 flex-1 flex-col items-center justify-center gap-3 py-3 text-center sm:gap-5 sm:py-6">
        <div
          className={clsx(
            "rounded-full p-1.5 transition",
            state.speaker === "persona" && "animate-pulse ring-4 ring-brand-400/70",
            state.speaker === "user" && "ring-4 ring-emerald-400/70",
          )}
        >
          <UserAvatar name={personaName} image={personaImage} size="lg" />
        </div>
        <div className="flex items-center justify-center">
          <h2 className="font-display text-2xl font-bold">{personaName}</h2>
          <AiMarker tone="onDark" />
        </div>
        <p
          className="text-xs font-medium uppercase tracking-wide text-white/70"
          data-testid="call-ai-voice"
        >
          {CALL_TEXT.aiGeneratedVoice}
        </p>
        <p aria-live="polite" data-testid="call-speaker" className="min-h-6 text-white/80">
          {speakerText}
        </p>
        {left !== null && live && (
          <p className="text-sm text-white/70" data-testid="call-remaining">
            About {formatClock(left)} left · {balance} credits
          </p>
        )}
        {state.status === "connecting" && state.notice && (
          <p className="text-sm text-amber-300" role="alert">
            {state.notice}
          </p>
        )}
        {state.warning && live && (
          <p className="flex items-center gap-2 text-sm text-amber-300">
            <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
            {state.warning}
          </p>
        )}

        {live && state.stt === "pocketsphinx" && (
          <p className="max-w-sm text-sm text-amber-200" data-testid="call-rough-stt">
            {CALL_TEXT.roughRecognition}
          </p>
        )}

        <Captions captions={state.captions} personaName={personaName} />

        {over && !(state.status === "ended" && state.endedMessage === STATUS_TEXT.ended) && (
          <p
            role="alert"
            data-testid="call-end-message"
            className={clsx(
              "max-w-sm text-base",
              state.status === "error" ? "text-red-300" : "text-white/90",
            )}
          >
            {state.status === "error" ? state.error : state.endedMessage}
          </p>
        )}
      </div>

      {over ? (
        <div className="flex justify-center">
          <button
            ref={closeRef}
            type="button"
            onClick={onClose}
            className="inline-flex h-14 min-w-40 items-center justify-center gap-2 rounded-full bg-white px-6 text-base font-semibold text-stone-900 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            <X aria-hidden="true" className="size-5" />
            Close
          </button>
        </div>
      ) : (
        <div className="flex flex-col items-center gap-4">
          <label className="flex items-center gap-2 text-sm text-white/80">
            <input
              type="checkbox"
              checked={state.bargeIn}
              onChange={(event) => onBargeInChange(event.target.checked)}
              className="size-4 accent-brand-500"
            />
            Interrupt by speaking
          </label>
          <div className="flex items-center justify-center gap-8">
            <button
              type="button"
              onClick={onToggleMute}
              aria-pressed={state.muted}
              aria-label={state.muted ? "Unmute microphone" : "Mute microphone"}
              disabled={!live}
              className={clsx(
                "flex size-16 items-center justify-center rounded-full transition focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-white disabled:opacity-50",
                state.muted
                  ? "bg-white text-stone-900"
                  : "bg-white/15 text-white hover:bg-white/25",
              )}
            >
              {state.muted ? (
                <MicOff aria-hidden="true" className="size-7" />
              ) : (
                <Mic aria-hidden="true" className="size-7" />
              )}
            </button>
            <button
              ref={hangUpRef}
              type="button"
              onClick={onHangUp}
              aria-label="Hang up"
              className="flex size-20 items-center justify-center rounded-full bg-red-600 text-white shadow-lg shadow-red-900/40 transition hover:bg-red-500 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-white"
            >
              <PhoneOff aria-hidden="true" className="size-8" />
            </button>
          </div>
        </div>
      )}
    </div>,
    document.body,
  );
}

/**
 * The live captions: both sides of the call, oldest first, in a scrollable log that follows the
 * newest line unless the fan scrolled up to read; a polite live region, so a screen reader reads
 * each new line without cutting into what it is saying.
 */
function Captions({ captions, personaName }: { captions: Caption[]; personaName: string }) {
  const listRef = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const count = captions.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows each new line
  useEffect(() => {
    const list = listRef.current;
    if (list && pinned.current) list.scrollTop = list.scrollHeight;
  }, [count]);
  return (
    <section aria-label="Live captions" className="flex min-h-0 w-full max-w-lg flex-col text-left">
      {/* The log wraps the list: role="log" on the <ol> itself would take its list role away
          and leave every <li> outside a list. Focusable, so the arrow keys scroll it. */}
      <div
        ref={listRef}
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-label="Live captions"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus
        tabIndex={0}
        data-testid="call-captions"
        onScroll={(event) => {
          const list = event.currentTarget;
          pinned.current = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
        }}
        className="max-h-[38vh] min-h-0 overflow-y-auto overscroll-contain rounded-2xl pr-1 break-words focus-visible:outline-2 focus-visible:outline-white"
      >
        <ol className="space-y-2">
          {captions.map((caption) =>
            caption.who === "notice" ? (
              <li
                key={caption.id}
                data-testid="call-notice"
                data-kind={caption.kind}
                className="rounded-2xl border border-sky-300/50 bg-sky-400/15 px-4 py-2.5"
              >
                <p className="text-xs font-semibold tracking-wide text-sky-100 uppercase">
                  {PRODUCT_KIND_LABELS[caption.kind ?? "ai-notice"]}
                </p>
                <p className="mt-0.5">{caption.text}</p>
              </li>
            ) : (
              <li
                key={caption.id}
                data-testid={caption.who === "user" ? "call-transcript" : "call-response"}
                data-offline={caption.offline || undefined}
                className={clsx(
                  "rounded-2xl px-4 py-2.5",
                  caption.who === "user" ? "bg-white/10" : "bg-brand-500/20",
                )}
              >
                <p className="text-xs font-semibold tracking-wide text-white/70 uppercase">
                  {caption.who === "user" ? "You" : personaName}
                </p>
                <p className={clsx("mt-0.5", caption.offline && "text-white/75 italic")}>
                  {caption.text}
                  {caption.interrupted && <span className="text-white/70"> (interrupted)</span>}
                </p>
              </li>
            ),
          )}
        </ol>
      </div>
    </section>
  );
}
