import { describe, expect, it } from "vitest";
import { type AttemptCounters, failClosedCounters, memoryCounters } from "./attempt-counters.ts";

describe("the process's counters", () => {
  it("count hits in a window that starts with the first; a release takes one back, keeping the end", async () => {
    const counters = memoryCounters();
    const first = await counters.hit("k", 60_000);
    expect(first.count).toBe(1);
    expect(first.ttlMs).toBeGreaterThan(59_000);
    expect((await counters.hit("k", 60_000)).count).toBe(2);
    await counters.release("k");
    const third = await counters.hit("k", 60_000);
    expect(third.count).toBe(2);
    expect(third.ttlMs).toBeLessThanOrEqual(first.ttlMs);
    // Each key has its own window: a longer one on another key.
    expect((await counters.hit("other", 15 * 60_000)).ttlMs).toBeGreaterThan(14 * 60_000);
    await counters.reset("k");
    expect((await counters.hit("k", 60_000)).count).toBe(1);
  });
});

describe("counters that fail closed", () => {
  it("count in the process while the shared store fails, and say so", async () => {
    const failing: AttemptCounters = {
      hit: () => Promise.reject(new Error("down")),
      reset: () => Promise.reject(new Error("down")),
      release: () => Promise.reject(new Error("down")),
    };
    const failures: unknown[] = [];
    const counters = failClosedCounters(failing, memoryCounters(), (error) => failures.push(error));
    expect(counters.degraded()).toBe(false);
    for (let i = 1; i <= 3; i++) expect((await counters.hit("k", 60_000)).count).toBe(i);
    expect(counters.degraded()).toBe(true);
    // One report for the outage, not one per count.
    expect(failures).toHaveLength(1);
  });
});
