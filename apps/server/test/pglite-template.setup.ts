import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  interface ProvidedContext {
    /** An initialised, empty PGlite data directory that each test app copies. */
    pgliteTemplate: string;
  }
}

/**
 * Creating a PGlite data directory runs initdb (seconds); copying one takes milliseconds. One
 * template per run keeps every test app on its own fresh database without paying initdb each time.
 */
export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), "twinline-pglite-template-"));
  const directory = join(root, "pglite");
  const db = await PGlite.create(directory);
  await db.close();
  project.provide("pgliteTemplate", directory);
  return () => rmSync(root, { recursive: true, force: true });
}
