import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** An initialised, empty PGlite data directory that each test app copies. */
    pgliteTemplate: string;
  }
}

/**
 * Creating a PGlite data directory runs initdb (seconds); copying one takes milliseconds. One
 * template per run keeps every test app on its own fresh database without paying initdb each time.
 * The template is the database of an app booted once and closed: migrations applied, the job
 * queue's schema installed and its queues created (docs/decisions/0072), so a test app's boot
 * only checks them (creating pg-boss's partitioned queues costs PGlite about 0.2 s each).
 */
export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), "twinline-pglite-template-"));
  const directory = join(root, "pglite");
  const db = await PGlite.create(directory);
  await db.close();
  const app = await buildApp({
    config: loadConfig({ DATA_DIR: root, LOG_LEVEL: "silent" }),
    logger: false,
    webDistDir: join(root, "no-web-build"),
  });
  await app.close();
  project.provide("pgliteTemplate", directory);
  return () => rmSync(root, { recursive: true, force: true });
}
