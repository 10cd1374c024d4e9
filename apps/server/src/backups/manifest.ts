import { z } from "zod";

export const BACKUP_FORMAT = "twinline-backup";
export const BACKUP_FORMAT_VERSION = 1;

/** manifest.json, first in every backup: what it holds and from which database. */
export const backupManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_FORMAT_VERSION),
  takenAt: z.iso.datetime(),
  database: z.enum(["pglite", "postgres"]),
  /** The newest migration applied when the backup was taken. */
  migration: z.string().nullable(),
  /** The generated secrets it carries (only those kept in DATA_DIR, not those set in the env). */
  secrets: z.array(z.enum(["jwt-secret", "secrets-key", "vapid-keys"])),
});
export type BackupManifest = z.infer<typeof backupManifestSchema>;

/** Inside the archive. */
export const ARCHIVE_PATHS = {
  manifest: "manifest.json",
  postgresDump: "database/postgres.pgdump",
  pgliteTarball: "database/pglite.tar.gz",
  uploads: "data/uploads",
  secret: (name: string) => `data/${name}`,
} as const;
