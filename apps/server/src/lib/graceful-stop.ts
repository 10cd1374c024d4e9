/**
 * What a stop signal does to the server process (main.ts): the first one closes the app
 * gracefully (then exits 0, or 1 when closing fails or outlasts `timeoutMs`); a repeat forces
 * an immediate exit, unless it comes within `repeatGraceMs` of the first: that is the same stop
 * delivered twice, not a person insisting. `npm run dev` stopped with Ctrl-C delivers two
 * SIGTERMs about 12 ms apart (concurrently -k kills the tree, and tsx watch forwards the signal
 * to its child as well), which used to make every dev stop a forced one (issue 24).
 */
export interface GracefulStopOptions {
  close: () => Promise<void>;
  log: {
    info(message: string): void;
    warn(message: string): void;
    error(message: string, error?: unknown): void;
  };
  exit: (code: number) => void;
  timeoutMs: number;
  /** A repeat sooner than this after the first signal is ignored. */
  repeatGraceMs?: number;
  now?: () => number;
}

export const REPEAT_GRACE_MS = 1_000;

export function gracefulStop(options: GracefulStopOptions): (signal: string) => void {
  const { close, log, exit, timeoutMs } = options;
  const repeatGraceMs = options.repeatGraceMs ?? REPEAT_GRACE_MS;
  const now = options.now ?? (() => performance.now());
  let startedAt: number | undefined;
  return (signal) => {
    if (startedAt !== undefined) {
      if (now() - startedAt < repeatGraceMs) {
        log.info(`${signal} again at once: the same stop, still closing`);
        return;
      }
      log.warn(`${signal} again: exiting now`);
      exit(1);
      return;
    }
    startedAt = now();
    log.info(`${signal} received: closing (send it again to force)`);
    setTimeout(() => {
      log.error("Shutdown took too long: exiting");
      exit(1);
    }, timeoutMs).unref();
    close().then(
      () => exit(0),
      (error: unknown) => {
        log.error("Shutdown failed", error);
        exit(1);
      },
    );
  };
}
