import { AI_NOTICE_REPEAT_MS, SITTING_GAP_MS } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { createManualClock } from "../../../test/manual-clock.ts";
import { type Sitting, stepSitting } from "./sitting.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Active every 10 minutes from `step`'s last activity up to `until` (not a step at `until`). */
function keepActive(sitting: Sitting, until: number): Sitting {
  let current = sitting;
  for (let at = sitting.lastActiveAt + 10 * MINUTE; at < until; at += 10 * MINUTE) {
    const step = stepSitting(current, at, false);
    expect(step.notice).toBe(false);
    current = step.sitting;
  }
  return current;
}

/** A fan active every `everyMs` on a moved clock; answers when notices and reminders came. */
async function activeFor(totalMs: number, everyMs: number) {
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  const start = clock.now();
  let sitting: Sitting | undefined;
  const notices: number[] = [];
  const reminders: number[] = [];
  for (let elapsed = 0; elapsed <= totalMs; elapsed += everyMs) {
    const step = stepSitting(sitting, clock.now(), elapsed === 0);
    sitting = step.sitting;
    if (step.notice) notices.push((clock.now() - start) / HOUR);
    if (step.breakReminder) reminders.push((clock.now() - start) / HOUR);
    await clock.advance(everyMs);
  }
  return { notices, reminders };
}

describe("the AI notice's 3-hour repetition and the break reminder", () => {
  it("gives the notice at the start, then every 3 hours of continued use, with a break reminder", async () => {
    const { notices, reminders } = await activeFor(7 * HOUR, 5 * MINUTE);
    expect(notices).toEqual([0, 3, 6]);
    expect(reminders).toEqual([3, 6]);
  });

  it("does not repeat a minute early", async () => {
    const start = Date.UTC(2026, 0, 1);
    const first = stepSitting(undefined, start, true);
    const until = start + AI_NOTICE_REPEAT_MS - 1;
    const early = stepSitting(keepActive(first.sitting, until), until, false);
    expect(early.notice).toBe(false);
    const due = stepSitting(early.sitting, start + AI_NOTICE_REPEAT_MS, false);
    expect(due).toMatchObject({ notice: true, breakReminder: true });
    expect(first.nextDueAt).toBe(start + AI_NOTICE_REPEAT_MS);
  });

  it("gives the notice at the start of each conversation or call, without a reminder", () => {
    const start = Date.UTC(2026, 0, 1);
    const first = stepSitting(undefined, start, true);
    const second = stepSitting(keepActive(first.sitting, start + HOUR), start + HOUR, true);
    expect(second).toMatchObject({ notice: true, breakReminder: false });
    // The repetition counts from the last notice; the reminder from the sitting's start.
    expect(second.nextDueAt).toBe(start + 3 * HOUR);
    const atThree = stepSitting(
      keepActive(second.sitting, start + 3 * HOUR),
      start + 3 * HOUR,
      false,
    );
    expect(atThree).toMatchObject({ notice: true, breakReminder: true });
  });

  it("starts a new sitting after a gap longer than the sitting gap (notice, no reminder)", () => {
    const start = Date.UTC(2026, 0, 1);
    let step = stepSitting(undefined, start, true);
    for (let at = start + 20 * MINUTE; at < start + 2.5 * HOUR; at += 20 * MINUTE) {
      step = stepSitting(step.sitting, at, false);
    }
    const back = step.sitting.lastActiveAt + SITTING_GAP_MS + 1;
    const resumed = stepSitting(step.sitting, back, false);
    expect(resumed).toMatchObject({ notice: true, breakReminder: false });
    expect(resumed.sitting.startedAt).toBe(back);
    // A gap of exactly the limit is still the same sitting.
    const same = stepSitting(step.sitting, step.sitting.lastActiveAt + SITTING_GAP_MS, false);
    expect(same.sitting.startedAt).toBe(start);
  });

  it("a clock that went back moves nothing back", () => {
    const start = Date.UTC(2026, 0, 1);
    const first = stepSitting(undefined, start + HOUR, true);
    const behind = stepSitting(first.sitting, start + 59 * MINUTE, false);
    expect(behind.notice).toBe(false);
    expect(behind.sitting.lastActiveAt).toBe(start + HOUR);
  });
});
