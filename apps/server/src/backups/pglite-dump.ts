import { existsSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_EXTENSIONS } from "../db/pglite-extensions.ts";
import type { PgliteThread } from "../db/pglite-thread.ts";
import { BackupError } from "./backup-error.ts";

/** Where the app keeps its embedded database (db/client.ts). */
export const pgliteDirectory = (dataDir: string) => join(dataDir, "pglite");

/**
 * PGlite writes postmaster.pid while a process has the directory open and removes it on close.
 * A second process opening it would replay and rewrite the files under the first one's feet.
 */
export function assertPgliteClosed(dataDir: string): void {
  if (existsSync(join(pgliteDirectory(dataDir), "postmaster.pid"))) {
    throw new BackupError(
      `The embedded database in ${dataDir} is open: stop the server first. (If no server runs, it stopped without closing: start it once and stop it with Ctrl-C.)`,
    );
  }
}

/** The live database's directory as PGlite's gzipped tarball, taken between statements. */
export async function dumpPglite(client: Pick<PgliteThread, "dumpDataDir">, file: string) {
  await writeFile(file, await client.dumpDataDir(), { mode: 0o600 });
}

/**
 * Loads the tarball into a new directory beside the current one, checks that it opens, then swaps
 * them; the previous directory goes to `keepOldAt`.
 */
export async function restorePglite(dataDir: string, tarball: string, keepOldAt: string) {
  const target = pgliteDirectory(dataDir);
  const incoming = `${target}.restoring`;
  await rm(incoming, { recursive: true, force: true });
  const loadDataDir = new Blob([await readFile(tarball)]);
  const loaded = await PGlite.create(incoming, { loadDataDir, extensions: PGLITE_EXTENSIONS });
  try {
    await loaded.query("select 1");
  } finally {
    await loaded.close();
  }
  if (existsSync(target)) await rename(target, keepOldAt);
  await rename(incoming, target);
}
