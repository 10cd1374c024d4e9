/**
 * Takes a backup of this deployment (database, uploads, generated secrets) into one file:
 *
 *   npm run backup                       # into BACKUP_DIR (default DATA_DIR/backups)
 *   npm run backup -- --out /elsewhere/twinline.tar.gz
 *
 * It uses the server's configuration (DATA_DIR or DATABASE_URL). With the embedded PGlite, stop
 * the server first (a running server takes its own backups with BACKUP_SCHEDULE); PostgreSQL is
 * backed up while it serves (pg_dump takes a consistent snapshot).
 */
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createBackup } from "../backups/archive.ts";
import { BackupError } from "../backups/backup-error.ts";
import { assertPgliteClosed } from "../backups/pglite-dump.ts";
import { backupFileName } from "../backups/schedule.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  const config = loadConfig();
  if (!config.databaseUrl) assertPgliteClosed(config.dataDir);
  const file = resolve(values.out ?? join(config.backups.dir, backupFileName(new Date())));
  const connection = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  try {
    const manifest = await createBackup(
      { connection, databaseUrl: config.databaseUrl, dataDir: config.dataDir },
      file,
    );
    console.log(
      `Backup of the ${manifest.database} database (migration ${manifest.migration}) written to ${file}`,
    );
    console.log("It holds the generated secrets: keep it as private as the server itself.");
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  const known = error instanceof BackupError || error instanceof ConfigError;
  console.error(known ? error.message : error);
  process.exit(1);
});
