import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { kb, LANDING_JS_BUDGET_GZIP_BYTES, landingWeight, WEB_DIST } from "./landing-weight";

/**
 * bench:web: the JavaScript the landing page `/` loads before any lazy import, raw and gzipped,
 * from the built manifest. Builds the web app first when there is no build or with `--build`.
 */

const manifest = join(WEB_DIST, ".vite", "manifest.json");
if (process.argv.includes("--build") || !existsSync(manifest)) {
  console.log("Building the web app (npm run build -w @twinline/web)…");
  execFileSync("npm", ["run", "build", "-w", "@twinline/web"], {
    cwd: new URL("../..", import.meta.url).pathname,
    stdio: "inherit",
  });
}

const weight = landingWeight();
console.table(weight.js.map((f) => ({ file: f.file, raw: kb(f.bytes), gzip: kb(f.gzipBytes) })));
console.log(
  `Landing page JavaScript: ${weight.js.length} files, ${kb(weight.jsBytes)} raw, ${kb(weight.jsGzipBytes)} gzipped` +
    ` (budget ${kb(LANDING_JS_BUDGET_GZIP_BYTES)} gzipped); CSS ${kb(weight.cssGzipBytes)} gzipped`,
);
if (weight.jsGzipBytes > LANDING_JS_BUDGET_GZIP_BYTES) {
  console.log("Over budget.");
  process.exitCode = 1;
}
