import { utcDay, utcMonth } from "../lib/utc-day.ts";

/**
 * Which scheduled backups to keep: the newest of each of the last `daily` days, `weekly` ISO weeks
 * and `monthly` months that have a backup (restic's --keep-daily/--keep-weekly/--keep-monthly
 * rule), all in UTC. A backup kept by any rule stays.
 */
export interface RetentionPolicy {
  daily: number;
  weekly: number;
  monthly: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { daily: 7, weekly: 4, monthly: 6 };

export function backupsToKeep<T extends { takenAt: Date }>(
  backups: readonly T[],
  policy: RetentionPolicy = DEFAULT_RETENTION,
): Set<T> {
  const newestFirst = [...backups].sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
  const keep = new Set<T>();
  const rules: Array<[number, (date: Date) => string]> = [
    [policy.daily, utcDay],
    [policy.weekly, isoWeekKey],
    [policy.monthly, utcMonth],
  ];
  for (const [count, bucketOf] of rules) {
    const seen = new Set<string>();
    for (const backup of newestFirst) {
      if (seen.size >= count) break;
      const bucket = bucketOf(backup.takenAt);
      if (seen.has(bucket)) continue;
      seen.add(bucket);
      keep.add(backup);
    }
  }
  return keep;
}

/** "2026-W48": the ISO 8601 week (Monday first; week 1 holds the year's first Thursday). */
export function isoWeekKey(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}
