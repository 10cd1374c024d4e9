/**
 * Time as the call metering and the billing sweeps see it. The app uses the system clock; tests
 * pass a manual one (test/manual-clock.ts) and move it a minute at a time, with no real waits.
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

/** A task run again and again on a clock; started and stopped with the app. */
export interface RepeatingTask {
  start(): void;
  stop(): void;
}

/**
 * Runs `run` every `everyMs` on `clock`, each pass after the previous one ended (a slow pass is
 * never run twice at once); a pass that throws is reported and the next one still comes.
 */
export function repeatOnClock(
  clock: Clock,
  everyMs: number,
  run: () => Promise<unknown>,
  onError: (error: unknown) => void,
): RepeatingTask {
  let cancel: (() => void) | null = null;
  let running = false;
  const arm = () => {
    cancel = clock.setTimer(async () => {
      try {
        await run();
      } catch (error) {
        onError(error);
      }
      if (running) arm();
    }, everyMs);
  };
  return {
    start() {
      if (running) return;
      running = true;
      arm();
    },
    stop() {
      running = false;
      cancel?.();
      cancel = null;
    },
  };
}
