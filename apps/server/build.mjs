// Bundles the server into dist/main.js, and each worker thread's module beside it:
// dist/pglite-worker.js (the embedded database), dist/pdf-worker.js (knowledge PDFs) and
// dist/espeak-worker.js (the offline voice); lib/module-worker.ts starts them from there.
// npm dependencies stay external (node_modules has them), but two are bundled in: the workspace
// package @twinline/contracts (TypeScript source) and fastify with its own dependencies (avvio,
// find-my-way, ajv...): ~150 CommonJS files a start resolved, read and compiled one by one, about
// a fifth of a reopen's main-thread CPU before the first answer (issue 28; decision 0096).
// Nothing else imports fastify at run time, so there is one copy of it.
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const here = (path) => new URL(path, import.meta.url);
const pkg = JSON.parse(readFileSync(here("./package.json"), "utf8"));
const bundled = new Set(["@twinline/contracts", "fastify"]);
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
  .filter((name) => !bundled.has(name))
  // Subpath imports too (drizzle-orm/pglite, zod/v4/core...).
  .flatMap((name) => [name, `${name}/*`]);

rmSync(here("./dist"), { recursive: true, force: true });
await build({
  entryPoints: {
    main: here("./src/main.ts").pathname,
    "pglite-worker": here("./src/db/pglite-worker.ts").pathname,
    "pdf-worker": here("./src/modules/ai-training/pdf-worker.ts").pathname,
    "espeak-worker": here("./src/providers/tts/espeak-worker.ts").pathname,
    // `node dist/backup.js` and `node dist/restore.js` where no tsx is installed (the image).
    backup: here("./src/scripts/backup.ts").pathname,
    restore: here("./src/scripts/restore.ts").pathname,
    // Makes dist/pglite-template, the embedded database a first start copies (below).
    "pglite-template": here("./src/scripts/pglite-template.ts").pathname,
  },
  outdir: here("./dist").pathname,
  bundle: true,
  // main.ts loads the app with a dynamic import after it starts opening the database; split, that
  // import (and the npm modules it needs) is its own chunk instead of being loaded before main runs.
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  external,
  // Bundled CommonJS (fastify's tree) requires Node's modules and the external packages (pino).
  banner: {
    js: 'import { createRequire as __bundleCreateRequire } from "node:module"; const require = __bundleCreateRequire(import.meta.url);',
  },
  logLevel: "warning",
});
// The migrator reads `./migrations` next to the running module: src/db/ from source,
// dist/ from the bundle.
cpSync(here("./src/db/migrations"), here("./dist/migrations"), { recursive: true });
// A first start on the embedded database copies this instead of running initdb, the migrations
// and the job queue's set-up (src/scripts/pglite-template.ts; issue 28: a fresh start < 3 s).
execFileSync(
  process.execPath,
  [here("./dist/pglite-template.js").pathname, here("./dist/pglite-template").pathname],
  { stdio: "inherit" },
);
console.log(
  "Built apps/server/dist/main.js, its workers, dist/backup.js and dist/restore.js, and the first start's database (dist/pglite-template)",
);
