/**
 * Time as the call metering and the scheduled jobs (lib/jobs: the billing sweeps) see it. The
 * app uses the system clock; tests pass a manual one (test/manual-clock.ts) and move it a minute
 * at a time, with no real waits.
 */
export interface Clock {
  now(): number;
  /**
   * Runs `run` after `ms`; answers a function that cancels it. `run` may answer a promise (a
   * manual clock waits for it before it moves on).
   */
  setTimer(run: () => void | Promise<void>, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(run, ms) {
    const timer = setTimeout(() => void run(), ms);
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};
