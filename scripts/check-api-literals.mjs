// No "/api/" string outside the route table (issue 29, docs/decisions/0086): every endpoint's
// path is written once, in packages/contracts/src/routes, and the server, the web and the web's
// tests take it from there. Run by `npm run lint`.
//
// Comments are not checked (they may name the route they document).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// The server's own tests, e2e and bench call the API from outside, as a client would, and
// write the spec's paths on purpose: a path changed in the table must fail them. Everything
// else, the web's tests included, takes its paths from the table.
const SCANNED = ["apps/server/src", "apps/web/src", "packages"];
const BLACK_BOX_TEST = /^apps\/server\/src\/.*\.test\.ts$/;
const ROUTE_TABLE = "packages/contracts/src/routes/";
const EXTENSIONS = /\.(ts|tsx|mts|mjs|js)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (EXTENSIONS.test(name)) yield path;
  }
}

/** The text without comments (block comments, and line comments outside strings, roughly). */
export function withoutComments(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (match) => match.replace(/[^\n]/g, " "))
    .replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/**
 * A string that starts with an API path: "/api/...", "GET /api/...", "http://host/api/...",
 * `${base}/api/...` (not "./api/settings", a module).
 */
const API_LITERAL =
  /["'`](?:(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) )?(?:[a-z]+:\/\/[^/"'`\s]*|\$\{[^}]*\})?\/api(?:\/|["'`?])/;

/** The lines of `text` with a string literal holding "/api/" (or the whole "/api" prefix). */
export function apiLiterals(text) {
  const hits = [];
  withoutComments(text)
    .split("\n")
    .forEach((line, index) => {
      if (API_LITERAL.test(line)) hits.push(index + 1);
    });
  return hits;
}

function main() {
  const offenders = [];
  for (const top of SCANNED) {
    let base;
    try {
      base = statSync(join(ROOT, top)) && join(ROOT, top);
    } catch {
      continue;
    }
    for (const path of files(base)) {
      const name = relative(ROOT, path).split(sep).join("/");
      if (name.startsWith(ROUTE_TABLE) || BLACK_BOX_TEST.test(name)) continue;
      const hits = apiLiterals(readFileSync(path, "utf8"));
      if (hits.length > 0) offenders.push(`${name}:${hits.join(",")}`);
    }
  }
  if (offenders.length > 0) {
    for (const o of offenders) {
      console.error(
        `"/api/" literal outside the route table (define the route in ${ROUTE_TABLE}): ${o}`,
      );
    }
    process.exit(1);
  }
  console.log("api literals: ok");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
