import { createHash } from "node:crypto";
import cronParser from "cron-parser";
import type { Clock } from "../clock.ts";

/** The first occurrence of `cron` (UTC) strictly after `now`. Throws on a malformed expression. */
export function nextOccurrence(cron: string, now: number): number {
  return cronParser
    .parseExpression(cron, { currentDate: new Date(now), tz: "UTC" })
    .next()
    .getTime();
}

/**
 * The job id of one occurrence of a scheduled job: the same on every instance, so the first
 * instance's insert wins and the others' do nothing (pg-boss inserts ON CONFLICT DO NOTHING).
 */
export function occurrenceJobId(name: string, occurrence: number): string {
  const hex = createHash("sha256").update(`${name}@${occurrence}`).digest("hex");
  // Shaped as a version-5-like UUID (pg-boss's id column is uuid).
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `5${hex.slice(13, 16)}`,
    `${((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join("-");
}

/**
 * Calls `onTick(occurrence)` at each occurrence of `cron` on `clock` (the manual clock of a test
 * moves it), each after the previous one ended. Answers a function that stops it.
 */
export function tickOnCron(
  clock: Clock,
  cron: string,
  onTick: (occurrence: number) => Promise<void>,
): () => void {
  let cancel: (() => void) | null = null;
  let running = true;
  const arm = () => {
    const now = clock.now();
    const occurrence = nextOccurrence(cron, now);
    cancel = clock.setTimer(async () => {
      await onTick(occurrence);
      if (running) arm();
    }, occurrence - now);
  };
  arm();
  return () => {
    running = false;
    cancel?.();
    cancel = null;
  };
}
