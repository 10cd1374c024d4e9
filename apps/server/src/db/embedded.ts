import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openPgliteThread, type PgliteThread, type PgliteThreadOptions } from "./pglite-thread.ts";

/**
 * The built template a first start copies (db/start-from-template.ts): dist/pglite-template
 * beside the bundle, as the migrations are. From source there is none, and PGlite's initdb
 * creates the directory itself.
 */
const BUILT_TEMPLATE = fileURLToPath(new URL("./pglite-template", import.meta.url));

/**
 * Opens the embedded PostgreSQL under `${dataDir}/pglite` on its own thread. A module of its own,
 * light to load: main.ts starts the thread with it before it loads drizzle, pg and the schema
 * (~0.2 s), so the engine's start overlaps them (issue 28 item 5).
 */
export function openEmbeddedDatabase(
  dataDir: string,
  options: Pick<PgliteThreadOptions, "onError"> = {},
): Promise<PgliteThread> {
  const directory = join(dataDir, "pglite");
  mkdirSync(directory, { recursive: true });
  return openPgliteThread(directory, { ...options, template: BUILT_TEMPLATE });
}
