import { cpSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * A first start copies the built template (src/scripts/pglite-template.ts) instead of running
 * initdb, every migration and the job queue's set-up. The PGlite thread does it before it opens
 * the directory, so the copy overlaps the main thread's loading of the app (issue 28 item 5);
 * synchronously, because `fs/promises` `cp` of its 1,400 files was measured much slower
 * (docs/decisions/0096). Answers whether it copied.
 */
export function startFromTemplate(directory: string, template: string | undefined): boolean {
  if (!template) return false;
  if (existsSync(directory) && readdirSync(directory).length > 0) return false;
  if (!existsSync(join(template, "PG_VERSION"))) return false;
  cpSync(template, directory, { recursive: true });
  return true;
}
