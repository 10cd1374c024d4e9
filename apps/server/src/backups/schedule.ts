import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
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

export interface ScheduledBackupOptions {
  connection: DatabaseConnection;
  databaseUrl: string | undefined;
  dataDir: string;
  dir: string;
  log: { info(object: object, message: string): void };
}

/**
 * BACKUP_SCHEDULE's job (app.ts defines it on the job queue, which runs each occurrence once
 * across instances): a backup into `dir`, then the old ones pruned.
 */
export async function runScheduledBackup(options: ScheduledBackupOptions, now = new Date()) {
  const file = join(options.dir, backupFileName(now));
  await createBackup(options, file, now);
  const pruned = await pruneBackups(options.dir);
  options.log.info({ file, pruned }, "Backup taken");
}
