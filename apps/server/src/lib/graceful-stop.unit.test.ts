import { describe, expect, it } from "vitest";
import { gracefulStop, REPEAT_GRACE_MS } from "./graceful-stop.ts";

/** A stop wired to a close we finish by hand, a clock we move, and recorded exits. */
function harness() {
  let finish: () => void = () => {};
  let clock = 0;
  const exits: number[] = [];
  let closes = 0;
  const stop = gracefulStop({
    close: () => {
      closes += 1;
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    },
    log: { info: () => {}, warn: () => {}, error: () => {} },
    exit: (code) => exits.push(code),
    timeoutMs: 10_000,
    now: () => clock,
  });
  return {
    stop,
    exits,
    closes: () => closes,
    advance: (ms: number) => {
      clock += ms;
    },
    finishClose: async () => {
      finish();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe("stopping the server on a signal", () => {
  it("a second SIGTERM 12 ms after the first (npm run dev's Ctrl-C) is the same stop: graceful, exit 0", async () => {
    const h = harness();
    h.stop("SIGTERM");
    h.advance(12);
    h.stop("SIGTERM");
    expect(h.exits).toEqual([]);
    expect(h.closes()).toBe(1);
    await h.finishClose();
    expect(h.exits).toEqual([0]);
  });

  it("a signal repeated later still forces the exit (a person insisting)", async () => {
    const h = harness();
    h.stop("SIGINT");
    h.advance(REPEAT_GRACE_MS + 1);
    h.stop("SIGINT");
    expect(h.exits).toEqual([1]);
    expect(h.closes()).toBe(1);
  });
});
