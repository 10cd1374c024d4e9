import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts a worker thread on one of the server's own modules, found both from source and from
 * the bundle: the bundle's `dist/<name>.js` beside dist/main.js (build.mjs makes one entry per
 * worker); from source (tests, tsx), a bootstrap that registers tsx in the worker, then imports
 * `src/<sourcePath>.ts` (Node 20 does not carry a parent's loader hooks into a worker's entry).
 *
 * @param name the bundle entry's name (`pglite-worker` gives dist/pglite-worker.js)
 * @param sourcePath the module from src/, without `.ts` (`db/pglite-worker`)
 */
export function startModuleWorker(
  name: string,
  sourcePath: string,
  options: WorkerOptions = {},
): Worker {
  if (!import.meta.url.endsWith(".ts")) {
    return new Worker(new URL(`./${name}.js`, import.meta.url), options);
  }
  // tsx's ESM API (its exports map resolves require() to the .cjs twin).
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve("tsx/esm/api")
      .replace(/\.cjs$/, ".mjs"),
  ).href;
  const source = new URL(`../${sourcePath}.ts`, import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
