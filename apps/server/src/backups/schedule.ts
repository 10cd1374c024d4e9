import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { Cron } from "croner";
import type { DatabaseConnection } from "../db/client.ts";
import { createBackup } from "./archive.ts";
import { backupsToKeep, DEFAULT_RETENTION, type RetentionPolicy } from "./retention.ts";

const FILE_PATTERN = /^twinline-backup-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})Z\.tar\.gz$/;

/** twinline-backup-2026-11-26T03-00-00Z.tar.gz: sortable, and the same name on every instance. */
export function backupFileName(takenAt: Date): string {
  const stamp = takenAt.toISOString().slice(0, 19).replaceAll(":", "-");
  return `twinline-backup-${stamp}Z.tar.gz`;
}

function takenAtOf(name: string): Date | undefined {
  const match = FILE_PATTERN.exec(name);
  if (!match?.[1]) return undefined;
  const [day, time = ""] = match[1].split("T");
  return new Date(`${day}T${time.replaceAll("-", ":")}Z`);
}

/** Deletes the scheduled backups in `dir` the policy no longer keeps; answers the deleted names. */
export async function pruneBackups(
  dir: string,
  policy: RetentionPolicy = DEFAULT_RETENTION,
): Promise<string[]> {
  const backups = (await readdir(dir)).flatMap((name) => {
    const takenAt = takenAtOf(name);
    return takenAt ? [{ name, takenAt }] : [];
  });
  const keep = backupsToKeep(backups, policy);
  const deleted = backups.filter((backup) => !keep.has(backup)).map((backup) => backup.name);
  for (const name of deleted) await rm(join(dir, name), { force: true });
  return deleted;
}

// Any constant works; the same for every instance, so one of them takes each scheduled backup.
const BACKUP_LOCK_ID = 7_294_002;

export interface ScheduledBackupOptions {
  connection: DatabaseConnection;
  databaseUrl: string | undefined;
  dataDir: string;
  dir: string;
  log: {
    info(object: object, message: string): void;
    error(object: object, message: string): void;
  };
}

/**
 * Takes a backup into `dir` and prunes the old ones. On PostgreSQL an advisory lock lets one of
 * several instances do it; the others skip that tick.
 */
export async function runScheduledBackup(options: ScheduledBackupOptions, now = new Date()) {
  const take = async () => {
    const file = join(options.dir, backupFileName(now));
    await createBackup(options, file, now);
    const pruned = await pruneBackups(options.dir);
    options.log.info({ file, pruned }, "Backup taken");
  };
  if (options.connection.kind === "pglite") return take();
  const client = await options.connection.pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      "select pg_try_advisory_lock($1) as locked",
      [BACKUP_LOCK_ID],
    );
    if (!rows[0]?.locked) return;
    try {
      await take();
    } finally {
      await client.query("select pg_advisory_unlock($1)", [BACKUP_LOCK_ID]);
    }
  } finally {
    client.release();
  }
}

/** BACKUP_SCHEDULE's timer (UTC); a backup still running when the next is due makes it skip. */
export function scheduleBackups(
  schedule: string,
  options: ScheduledBackupOptions,
): { stop(): void } {
  const job = new Cron(schedule, { timezone: "UTC", protect: true }, async () => {
    try {
      await runScheduledBackup(options);
    } catch (error) {
      options.log.error({ err: error }, "Scheduled backup failed");
    }
  });
  return { stop: () => job.stop() };
}
