import { describe, expect, it, vi } from "vitest";
import {
  connectWithRetry,
  currentBalance,
  endReportDelay,
  formatClock,
  remainingSeconds,
  reportWithRetry,
} from "./policies";

describe("end report retry", () => {
  it("backs off 1 s, 2 s, 4 s, capped at 5 s", () => {
    expect([1, 2, 3, 4, 5].map(endReportDelay)).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it("tries three times in all, waiting 1 s then 2 s", async () => {
    const waits: number[] = [];
    const report = vi.fn(async () => {
      throw new Error("down");
    });
    const ok = await reportWithRetry(report, { wait: async (ms) => void waits.push(ms) });
    expect(ok).toBe(false);
    expect(report).toHaveBeenCalledTimes(3);
    expect(waits).toEqual([1000, 2000]);
  });

  it("stops at the first success", async () => {
    const report = vi.fn().mockRejectedValueOnce(new Error("down")).mockResolvedValue("ok");
    expect(await reportWithRetry(report, { wait: async () => {} })).toBe(true);
    expect(report).toHaveBeenCalledTimes(2);
  });
});

describe("connect with retry", () => {
  it("makes at most three attempts, 1 s apart, and reports each retry", async () => {
    const waits: number[] = [];
    const retries: number[] = [];
    const open = vi.fn(async () => ({ ok: false as const, reason: "closed" }));
    const outcome = await connectWithRetry(open, {
      wait: async (ms) => void waits.push(ms),
      onRetry: (attempt) => retries.push(attempt),
    });
    expect(outcome.ok).toBe(false);
    expect(open).toHaveBeenCalledTimes(3);
    expect(waits).toEqual([1000, 1000]);
    expect(retries).toEqual([1, 2]);
  });

  it("returns the first socket that opens", async () => {
    const open = vi
      .fn()
      .mockResolvedValueOnce({ ok: false, reason: "timeout" })
      .mockResolvedValueOnce({ ok: true, socket: "S" });
    const outcome = await connectWithRetry(open, { wait: async () => {} });
    expect(outcome).toEqual({ ok: true, socket: "S" });
    expect(open).toHaveBeenCalledTimes(2);
  });

  it("stops when cancelled", async () => {
    let cancelled = false;
    const open = vi.fn(async () => {
      cancelled = true;
      return { ok: false as const, reason: "closed" };
    });
    await connectWithRetry(open, { wait: async () => {}, cancelled: () => cancelled });
    expect(open).toHaveBeenCalledTimes(1);
  });
});

describe("remaining call time", () => {
  it("counts the paid minute under way plus what the balance buys", () => {
    // 45 credits left after the first minute at 5 per minute: 9 more minutes.
    expect(
      remainingSeconds({ elapsedSeconds: 0, balance: 45, balanceMinute: 1, creditsPerMinute: 5 }),
    ).toBe(600);
    expect(
      remainingSeconds({ elapsedSeconds: 30, balance: 45, balanceMinute: 1, creditsPerMinute: 5 }),
    ).toBe(570);
    // 61 s: the second minute was charged (40 left = 8 minutes) and runs until 120 s.
    expect(
      remainingSeconds({ elapsedSeconds: 61, balance: 45, balanceMinute: 1, creditsPerMinute: 5 }),
    ).toBe(59 + 480);
    // A balance that does not buy a whole minute buys nothing more.
    expect(
      remainingSeconds({ elapsedSeconds: 10, balance: 4, balanceMinute: 1, creditsPerMinute: 5 }),
    ).toBe(50);
  });

  it("counts from the balance of a later report (credit_warning) and the minutes since", () => {
    // Told 10 credits left during minute 3; now in minute 4: 5 left, one more minute.
    const at = { elapsedSeconds: 200, balance: 10, balanceMinute: 3, creditsPerMinute: 5 };
    expect(currentBalance(at)).toBe(5);
    expect(remainingSeconds(at)).toBe(40 + 60);
    expect(currentBalance({ ...at, elapsedSeconds: 150 })).toBe(10);
  });

  it("formats a clock", () => {
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(7.9)).toBe("0:07");
    expect(formatClock(65)).toBe("1:05");
    expect(formatClock(3723)).toBe("1:02:03");
  });
});
