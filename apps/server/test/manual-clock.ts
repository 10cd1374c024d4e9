import type { Clock } from "../src/lib/clock.ts";

interface Timer {
  at: number;
  run: () => void | Promise<void>;
}

/** A clock that moves only when told: the call's minutes pass without real waits. */
export interface ManualClock extends Clock {
  /** Moves time forward, running each timer due on the way (in order, awaiting each). */
  advance(ms: number): Promise<void>;
  /**
   * Moves time forward at once, as a machine that slept: each timer due on the way runs once,
   * at the new time (what setTimeout does after a suspend). A day of minute-by-minute ticks
   * is thousands of queue jobs (docs/decisions/0072); a test that only needs the day to have
   * passed jumps it.
   */
  jump(ms: number): Promise<void>;
}

export function createManualClock(start = Date.now()): ManualClock {
  let now = start;
  const timers = new Set<Timer>();
  return {
    now: () => now,
    setTimer(run, ms) {
      const timer = { at: now + Math.max(0, ms), run };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    async advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...timers]
          .filter((timer) => timer.at <= target)
          .sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers.delete(due);
        now = Math.max(now, due.at);
        await due.run();
      }
      now = target;
    },
    async jump(ms) {
      now += ms;
      const due = [...timers].filter((timer) => timer.at <= now).sort((a, b) => a.at - b.at);
      for (const timer of due) {
        timers.delete(timer);
        await timer.run();
      }
    },
  };
}
