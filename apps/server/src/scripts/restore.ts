/**
 * Puts a backup back (database, uploads, generated secrets), with the server stopped:
 *
 *   npm run restore -- FILE
 *
 * What it replaces is moved to DATA_DIR/before-restore-<time>/ (delete it once satisfied). A
 * PostgreSQL database is replaced in one transaction: a restore that fails leaves it as it was.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { restoreBackup } from "../backups/archive.ts";
import { BackupError } from "../backups/backup-error.ts";
import { assertPgliteClosed } from "../backups/pglite-dump.ts";
import { ConfigError, loadConfig } from "../config.ts";

async function main(): Promise<void> {
  const { positionals } = parseArgs({ allowPositionals: true });
  const [file] = positionals;
  if (!file || positionals.length > 1) throw new BackupError("Usage: npm run restore -- FILE");
  const config = loadConfig();
  if (!config.databaseUrl) assertPgliteClosed(config.dataDir);
  const { manifest, previous } = await restoreBackup(
    { databaseUrl: config.databaseUrl, dataDir: config.dataDir },
    resolve(file),
  );
  console.log(`Restored the backup taken ${manifest.takenAt} (migration ${manifest.migration}).`);
  console.log(`What it replaced is in ${previous}.`);
  if (manifest.secrets.length > 0 && (process.env.JWT_SECRET || process.env.SECRETS_KEY)) {
    console.log(
      "JWT_SECRET / SECRETS_KEY are set in the environment: they win over the restored files.",
    );
  }
}

main().catch((error: unknown) => {
  const known = error instanceof BackupError || error instanceof ConfigError;
  console.error(known ? error.message : error);
  process.exit(1);
});
