import { AI_NOTICE_REPEAT_MS, BREAK_REMINDER_AFTER_MS, SITTING_GAP_MS } from "@twinline/contracts";

/**
 * A fan's sitting, in the app's clock's milliseconds (docs/decisions/0058-ai-notice-and-sittings.md):
 * activity on chat or call with no gap longer than SITTING_GAP_MS.
 */
export interface Sitting {
  startedAt: number;
  lastActiveAt: number;
  /** The last AI notice given in it. */
  noticeAt: number;
  /** The last break reminder given in it, else its start. */
  breakAt: number;
}

export interface SittingStep {
  sitting: Sitting;
  /** Give the AI notice now. */
  notice: boolean;
  /** Give a break reminder now (always with the notice). */
  breakReminder: boolean;
  /** When a notice or a reminder falls due next if the fan goes on (a live call's timer). */
  nextDueAt: number;
}

/**
 * The fan is active at `now`; `starts`: a conversation or a call begins with this activity.
 * The notice is due at the start of a sitting, of a conversation and of a call, and once
 * AI_NOTICE_REPEAT_MS have passed since the last one; a break reminder once
 * BREAK_REMINDER_AFTER_MS of the sitting have passed since its start or the last reminder, and
 * it always comes with the notice. A clock that went back (another instance) moves nothing back.
 */
export function stepSitting(
  previous: Sitting | undefined,
  now: number,
  starts: boolean,
): SittingStep {
  if (!previous || now - previous.lastActiveAt > SITTING_GAP_MS) {
    const sitting = { startedAt: now, lastActiveAt: now, noticeAt: now, breakAt: now };
    return { sitting, notice: true, breakReminder: false, nextDueAt: nextDue(sitting) };
  }
  const breakReminder = now - previous.breakAt >= BREAK_REMINDER_AFTER_MS;
  const notice = starts || breakReminder || now - previous.noticeAt >= AI_NOTICE_REPEAT_MS;
  const sitting = {
    startedAt: previous.startedAt,
    lastActiveAt: Math.max(previous.lastActiveAt, now),
    noticeAt: notice ? now : previous.noticeAt,
    breakAt: breakReminder ? now : previous.breakAt,
  };
  return { sitting, notice, breakReminder, nextDueAt: nextDue(sitting) };
}

function nextDue(sitting: Sitting): number {
  return Math.min(
    sitting.noticeAt + AI_NOTICE_REPEAT_MS,
    sitting.breakAt + BREAK_REMINDER_AFTER_MS,
  );
}
