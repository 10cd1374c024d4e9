import { existsSync } from "node:fs";
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import * as tar from "tar";
import type { DatabaseConnection } from "../db/client.ts";
import { BackupError } from "./backup-error.ts";
import {
  ARCHIVE_PATHS,
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupManifest,
  backupManifestSchema,
} from "./manifest.ts";
import { appliedMigration, knownMigrations } from "./migration-level.ts";
import { dumpPglite, pgliteDirectory, restorePglite } from "./pglite-dump.ts";
import { dumpPostgres, restorePostgres } from "./postgres-dump.ts";

/** The secrets the server generates into DATA_DIR when the environment does not set them. */
const GENERATED_SECRETS = ["jwt-secret", "secrets-key", "vapid-keys"] as const;

export interface BackupSource {
  connection: DatabaseConnection;
  /** Required for PostgreSQL (pg_dump connects on its own). */
  databaseUrl: string | undefined;
  dataDir: string;
}

/**
 * Writes one archive (tar.gz, mode 600: it holds the secrets) with the database, the uploads
 * and the generated secrets. It appears at `file` only once complete.
 */
export async function createBackup(source: BackupSource, file: string, now = new Date()) {
  await mkdir(dirname(file), { recursive: true });
  const staging = await mkdtemp(join(dirname(file), ".staging-"));
  try {
    await mkdir(join(staging, "database"));
    await mkdir(join(staging, "data"));
    if (source.connection.kind === "pglite") {
      await dumpPglite(source.connection.client, join(staging, ARCHIVE_PATHS.pgliteTarball));
    } else {
      if (!source.databaseUrl)
        throw new BackupError("DATABASE_URL is needed to back up PostgreSQL");
      await dumpPostgres(source.databaseUrl, join(staging, ARCHIVE_PATHS.postgresDump));
    }
    const uploads = join(source.dataDir, "uploads");
    if (existsSync(uploads)) await symlink(uploads, join(staging, ARCHIVE_PATHS.uploads), "dir");
    else await mkdir(join(staging, ARCHIVE_PATHS.uploads));
    const secrets = GENERATED_SECRETS.filter((name) => existsSync(join(source.dataDir, name)));
    for (const name of secrets) {
      await copyFile(join(source.dataDir, name), join(staging, ARCHIVE_PATHS.secret(name)));
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      takenAt: now.toISOString(),
      database: source.connection.kind,
      migration: await appliedMigration(source.connection.db),
      secrets: [...secrets],
    };
    await writeFile(
      join(staging, ARCHIVE_PATHS.manifest),
      `${JSON.stringify(manifest, null, 2)}\n`,
    );
    const partial = `${file}.part`;
    await tar.create(
      { gzip: true, file: partial, cwd: staging, follow: true, portable: true, mode: 0o600 },
      [ARCHIVE_PATHS.manifest, "database", "data"],
    );
    await chmod(partial, 0o600);
    await rename(partial, file);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export interface RestoreTarget {
  databaseUrl: string | undefined;
  dataDir: string;
}

export interface RestoreOutcome {
  manifest: BackupManifest;
  /** Where what the restore replaced was moved (delete it once satisfied). */
  previous: string;
}

/**
 * Replaces the database, the uploads and the generated secrets with the archive's. The server
 * must be stopped (PGlite) or idle (PostgreSQL); what was there goes to `previous`.
 */
export async function restoreBackup(
  target: RestoreTarget,
  file: string,
  now = new Date(),
): Promise<RestoreOutcome> {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  await mkdir(target.dataDir, { recursive: true });
  const unpacked = await mkdtemp(join(target.dataDir, ".restore-"));
  try {
    try {
      await tar.extract({ file, cwd: unpacked, strict: true });
    } catch {
      throw new BackupError(`${basename(file)} is not a Twinline backup (not a readable tar.gz)`);
    }
    const manifest = await readManifest(unpacked, file);
    const kind = target.databaseUrl ? "postgres" : "pglite";
    if (manifest.database !== kind) {
      throw new BackupError(
        `${basename(file)} holds a ${manifest.database === "pglite" ? "PGlite" : "PostgreSQL"} database, but this server uses ${kind === "pglite" ? "PGlite (no DATABASE_URL)" : "PostgreSQL (DATABASE_URL)"}`,
      );
    }
    const previous = join(
      target.dataDir,
      `before-restore-${now.toISOString().replaceAll(":", "-")}`,
    );
    await mkdir(previous, { recursive: true });
    if (target.databaseUrl) {
      await restorePostgres(
        target.databaseUrl,
        join(unpacked, ARCHIVE_PATHS.postgresDump),
        join(unpacked, "restore.sql"),
      );
    } else {
      await restorePglite(
        target.dataDir,
        join(unpacked, ARCHIVE_PATHS.pgliteTarball),
        join(previous, basename(pgliteDirectory(target.dataDir))),
      );
    }
    const uploads = join(target.dataDir, "uploads");
    if (existsSync(uploads)) await rename(uploads, join(previous, "uploads"));
    await rename(join(unpacked, ARCHIVE_PATHS.uploads), uploads);
    for (const name of manifest.secrets) {
      const current = join(target.dataDir, name);
      if (existsSync(current)) await rename(current, join(previous, name));
      await rename(join(unpacked, ARCHIVE_PATHS.secret(name)), current);
      await chmod(current, 0o600);
    }
    return { manifest, previous };
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
}

async function readManifest(unpacked: string, file: string): Promise<BackupManifest> {
  const path = join(unpacked, ARCHIVE_PATHS.manifest);
  const parsed = existsSync(path)
    ? backupManifestSchema.safeParse(safeJson(await readFile(path, "utf8")))
    : undefined;
  if (!parsed?.success)
    throw new BackupError(`${basename(file)} is not a Twinline backup (no valid manifest.json)`);
  const manifest = parsed.data;
  if (manifest.migration && !knownMigrations().some((entry) => entry.tag === manifest.migration)) {
    throw new BackupError(
      `${basename(file)} was taken by a newer Twinline (migration ${manifest.migration} is unknown here): restore it with that version`,
    );
  }
  return manifest;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
