/**
 * The call's timing rules (issue 10; user-side spec section 4): connecting with up to three
 * attempts, the end report retried with back-off, the time a call can still last.
 */

export const CONNECT_ATTEMPTS = 3;
/** Each attempt waits this long for the socket to open. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** After the socket opens, the server's call_started must come within this long. */
export const CALL_STARTED_TIMEOUT_MS = 10_000;
/** Pause between two attempts. */
export const CONNECT_GAP_MS = 1_000;
/** After a call ends, the audio is torn down this much later. */
export const CLEANUP_DELAY_MS = 1_500;
/** POST /api/voice-call/end: attempts in all, and the back-off between them (1 s, 2 s, … ≤ 5 s). */
export const END_REPORT_ATTEMPTS = 3;
export const END_REPORT_MAX_DELAY_MS = 5_000;
/** A credit_warning toast stays this long. */
export const CREDIT_WARNING_MS = 5_000;

export type Sleep = (ms: number) => Promise<void>;
export const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pause before retry `n` (1-based): 1 s, 2 s, 4 s, … capped at 5 s. */
export function endReportDelay(retry: number): number {
  return Math.min(1_000 * 2 ** (retry - 1), END_REPORT_MAX_DELAY_MS);
}

/**
 * Runs `report` until it succeeds, at most END_REPORT_ATTEMPTS times, pausing endReportDelay
 * between attempts. Resolves true on success, false when every attempt failed.
 */
export async function reportWithRetry(
  report: () => Promise<unknown>,
  { attempts = END_REPORT_ATTEMPTS, wait = sleep }: { attempts?: number; wait?: Sleep } = {},
): Promise<boolean> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      await report();
      return true;
    } catch {
      if (attempt < attempts) await wait(endReportDelay(attempt));
    }
  }
  return false;
}

/** How one connection attempt ended. */
export type AttemptOutcome<S> = { ok: true; socket: S } | { ok: false; reason: string };

/**
 * Tries `open` up to CONNECT_ATTEMPTS times, each given CONNECT_TIMEOUT_MS (enforced by `open`),
 * CONNECT_GAP_MS apart; `onRetry` hears about each failed attempt that will be retried.
 * Stops early when `cancelled()` says so (the user hung up while connecting).
 */
export async function connectWithRetry<S>(
  open: (attempt: number) => Promise<AttemptOutcome<S>>,
  {
    attempts = CONNECT_ATTEMPTS,
    gapMs = CONNECT_GAP_MS,
    wait = sleep,
    onRetry,
    cancelled = () => false,
  }: {
    attempts?: number;
    gapMs?: number;
    wait?: Sleep;
    onRetry?: (attempt: number, reason: string) => void;
    cancelled?: () => boolean;
  } = {},
): Promise<AttemptOutcome<S>> {
  let last: AttemptOutcome<S> = { ok: false, reason: "not tried" };
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (cancelled()) return { ok: false, reason: "cancelled" };
    last = await open(attempt);
    if (last.ok) return last;
    if (attempt < attempts) {
      onRetry?.(attempt, last.reason);
      await wait(gapMs);
    }
  }
  return last;
}

/** A dropped call's reconnection (decision 0053): the first retry this soon, then doubling… */
export const RECONNECT_FIRST_DELAY_MS = 250;
/** …up to this; the attempts stop when the server's grace (VOICE_RESUME_GRACE_MS) is over. */
export const RECONNECT_MAX_DELAY_MS = 4_000;

/** The pause before reconnection attempt `n` (1-based): 250 ms, 500 ms, 1 s, … capped at 4 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_FIRST_DELAY_MS * 2 ** (attempt - 1), RECONNECT_MAX_DELAY_MS);
}

/**
 * Tries `open` with back-off (reconnectDelay before each attempt) while `now()` is before
 * `deadline` and `cancelled()` does not say stop; `final` outcomes end the attempts at once (the
 * call is gone). Answers the first success, or the last failure.
 */
export async function reconnectWithin<S>(
  open: (attempt: number) => Promise<AttemptOutcome<S>>,
  {
    deadline,
    now,
    wait = sleep,
    cancelled = () => false,
    final = () => false,
  }: {
    deadline: number;
    now: () => number;
    wait?: Sleep;
    cancelled?: () => boolean;
    final?: (reason: string) => boolean;
  },
): Promise<AttemptOutcome<S>> {
  let last: AttemptOutcome<S> = { ok: false, reason: "window over" };
  for (let attempt = 1; ; attempt++) {
    const delay = reconnectDelay(attempt);
    if (now() + delay >= deadline) return last;
    await wait(delay);
    if (cancelled()) return { ok: false, reason: "cancelled" };
    last = await open(attempt);
    if (last.ok || final(last.reason)) return last;
  }
}

export interface BalanceAt {
  elapsedSeconds: number;
  /** The balance the server last reported… */
  balance: number;
  /** …while this minute of the call was under way (1: at the start, after its charge). */
  balanceMinute: number;
  creditsPerMinute: number;
}

/** Minutes started so far: a minute is charged as it starts. */
function minutesStarted(elapsedSeconds: number): number {
  return Math.max(1, Math.ceil(elapsedSeconds / 60));
}

/** The balance now: the last reported one less the minutes that started since. */
export function currentBalance({
  elapsedSeconds,
  balance,
  balanceMinute,
  creditsPerMinute,
}: BalanceAt): number {
  const since = Math.max(0, minutesStarted(elapsedSeconds) - balanceMinute);
  return Math.max(0, balance - since * creditsPerMinute);
}

/**
 * Seconds the call can still last: the minute under way is paid for, and each further whole
 * `creditsPerMinute` of the balance buys another minute.
 */
export function remainingSeconds(at: BalanceAt): number {
  if (at.creditsPerMinute <= 0) return Number.POSITIVE_INFINITY;
  const paidUntil = minutesStarted(at.elapsedSeconds) * 60;
  const more = Math.floor(currentBalance(at) / at.creditsPerMinute);
  return Math.max(0, paidUntil - at.elapsedSeconds) + more * 60;
}

/** 0:07, 1:05, 1:02:03. */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = String(s % 60).padStart(2, "0");
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`
    : `${minutes}:${seconds}`;
}
