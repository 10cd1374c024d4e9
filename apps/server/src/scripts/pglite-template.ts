/**
 * The embedded database of a first start, made once at build time (issue 28, item 5: a fresh
 * start under 3 s). A new PGlite data directory costs initdb, every migration and the job
 * queue's schema, seconds each on a small machine; copying a directory that already has them
 * costs milliseconds. The template is the database of an app booted once and closed: no
 * account, no setting and no secret (those live in DATA_DIR's files), only the schema, the
 * migrations' record and pg-boss's queues. The app still applies any newer migration at boot.
 *
 *   node dist/pglite-template.js dist/pglite-template   # build.mjs runs it after the bundle
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";

/** Writes the template into `target` (replaced), through a scratch DATA_DIR it then removes. */
export async function createPgliteTemplate(target: string): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "twinline-pglite-template-"));
  try {
    const app = await buildApp({
      config: loadConfig({ DATA_DIR: root, LOG_LEVEL: "silent" }),
      logger: false,
      webDistDir: join(root, "no-web-build"),
    });
    await app.close();
    rmSync(target, { recursive: true, force: true });
    cpSync(join(root, "pglite"), target, { recursive: true });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [target] = process.argv.slice(2);
  if (!target) throw new Error("usage: pglite-template.js TARGET_DIRECTORY");
  await createPgliteTemplate(resolve(target));
}
