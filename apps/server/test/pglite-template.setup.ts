import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { createPgliteTemplate } from "../src/scripts/pglite-template.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** An initialised, empty PGlite data directory that each test app copies. */
    pgliteTemplate: string;
  }
}

/**
 * Creating a PGlite data directory runs initdb (seconds); copying one takes milliseconds. One
 * template per run keeps every test app on its own fresh database without paying initdb each
 * time: the same template a build ships for a first start (src/scripts/pglite-template.ts).
 */
export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), "twinline-pglite-template-"));
  const directory = join(root, "pglite");
  await createPgliteTemplate(directory);
  project.provide("pgliteTemplate", directory);
  return () => rmSync(root, { recursive: true, force: true });
}
