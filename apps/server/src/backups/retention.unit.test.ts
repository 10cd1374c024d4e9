import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utcDay, utcMonth } from "../lib/utc-day.ts";
import { backupsToKeep, isoWeekKey } from "./retention.ts";

const at = (iso: string) => ({ takenAt: new Date(iso) });

describe("which backups are kept", () => {
  it("a nightly backup for a year keeps 7 days, 4 weeks and 6 months: the newest of each", () => {
    const nightly = Array.from({ length: 365 }, (_, day) =>
      at(new Date(Date.UTC(2026, 0, 1, 3) + day * 86_400_000).toISOString()),
    );
    const kept = [...backupsToKeep(nightly)].map((b) => utcDay(b.takenAt)).sort();
    expect(kept).toEqual(
      [
        // month ends (Jul–Nov) and the year's last day
        "2026-07-31",
        "2026-08-31",
        "2026-09-30",
        "2026-10-31",
        "2026-11-30",
        // Sundays closing the three weeks before the last one
        "2026-12-13",
        "2026-12-20",
        "2026-12-27",
        // the last 7 days
        "2026-12-25",
        "2026-12-26",
        "2026-12-27",
        "2026-12-28",
        "2026-12-29",
        "2026-12-30",
        "2026-12-31",
      ]
        .filter((day, index, days) => days.indexOf(day) === index)
        .sort(),
    );
  });

  it("two backups in one day: only the later counts for that day", () => {
    const early = at("2026-11-26T01:00:00Z");
    const late = at("2026-11-26T23:59:59Z");
    expect(backupsToKeep([late, early], { daily: 7, weekly: 0, monthly: 0 })).toEqual(
      new Set([late]),
    );
  });

  it("ISO weeks: the year's first Thursday is in week 1, Sunday ends a week", () => {
    expect(isoWeekKey(new Date("2026-01-01T00:00:00Z"))).toBe("2026-W01");
    expect(isoWeekKey(new Date("2027-01-01T00:00:00Z"))).toBe("2026-W53");
    expect(isoWeekKey(new Date("2026-11-29T23:59:59Z"))).toBe("2026-W48");
    expect(isoWeekKey(new Date("2026-11-30T00:00:00Z"))).toBe("2026-W49");
  });

  it("for any backups, in any order: the newest is kept, at most 7+4+6, and each kept one is the newest of a kept bucket", () => {
    const moment = fc.date({
      min: new Date("2020-01-01Z"),
      max: new Date("2030-01-01Z"),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(fc.array(moment, { maxLength: 200 }), (dates) => {
        const backups = dates.map((takenAt) => ({ takenAt }));
        const kept = backupsToKeep(backups);
        expect(kept.size).toBeLessThanOrEqual(17);
        if (backups.length === 0) return;
        const newest = Math.max(...dates.map((d) => d.getTime()));
        expect([...kept].some((b) => b.takenAt.getTime() === newest)).toBe(true);
        for (const backup of kept) {
          const newerSameBucket = (key: (d: Date) => string) =>
            backups.some(
              (other) =>
                key(other.takenAt) === key(backup.takenAt) && other.takenAt > backup.takenAt,
            );
          // Kept by at least one rule, where it is the newest of its bucket.
          expect(
            !newerSameBucket(utcDay) || !newerSameBucket(isoWeekKey) || !newerSameBucket(utcMonth),
          ).toBe(true);
        }
      }),
    );
  });
});
