// `npm start`: builds whatever is missing or older than its sources, then runs the server
// in this process, so a second start on an unchanged tree skips the build and opens in seconds.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname, "..");

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry === "dist") continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function isStale(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((source) => newestMtime(join(root, source)) > built);
}

const contracts = "packages/contracts/src";
const targets = [
  {
    workspace: "@twinline/web",
    output: join(root, "apps/web/dist/index.html"),
    sources: [
      "apps/web/src",
      "apps/web/public",
      "apps/web/index.html",
      "apps/web/vite.config.ts",
      // The service worker and the list of files it precaches (decision 0079).
      "apps/web/sw",
      "apps/web/app-shell.ts",
      contracts,
    ],
  },
  {
    workspace: "@twinline/server",
    output: join(root, "apps/server/dist/main.js"),
    sources: ["apps/server/src", "apps/server/build.mjs", contracts],
  },
];

for (const target of targets) {
  if (isStale(target.output, target.sources)) {
    console.log(`Building ${target.workspace}…`);
    execSync(`npm run build -w ${target.workspace}`, { cwd: root, stdio: "inherit" });
  }
}

await import(pathToFileURL(join(root, "apps/server/dist/main.js")).href);
