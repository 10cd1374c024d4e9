// The server's module boundaries (docs/decisions/0049), checked on the import graph the way Biome
// guards the web's features; run by `npm run lint`. No dependency: dependency-cruiser parses
// TypeScript through the TypeScript compiler API, which TypeScript 7 does not have, and the
// server's imports are plain static strings, so reading them is enough.
//
// Three rules, for every non-test file under apps/server/src/modules/<X>/:
// 1. X imports only the modules ALLOWED[X] names (the graph as it was when the rule was written).
// 2. No cycle between modules (KNOWN_CYCLES lists the one that predates the rule).
// 3. Nobody outside Y imports Y's repository (repository.ts, *-repository.ts), unless Y's
//    repository is its public face (PUBLIC_REPOSITORIES) or the import predates the rule
//    (KNOWN_REPOSITORY_IMPORTS, to be removed, never added to).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const BOUNDARIES_DECISION =
  "docs/decisions/0049-operator-loose-ends-and-server-boundaries.md";

/** Which modules each module may import. */
export const ALLOWED = {
  admin: ["auth", "billing", "chat", "users"],
  "ai-training": [],
  auth: ["credits", "settings", "users"],
  billing: ["credits", "dashboards", "users"],
  chat: ["ai-training", "settings", "users"],
  credits: [],
  dashboards: ["admin", "chat", "users"],
  health: [],
  settings: [],
  users: ["auth"],
  voice: ["auth", "chat", "credits", "settings"],
};

/** users has no service: its repository and mapper are what other modules read accounts with. */
export const PUBLIC_REPOSITORIES = new Set(["users"]);

/** Imports of another module's repository that predate the rule (file -> imported file). */
export const KNOWN_REPOSITORY_IMPORTS = new Set([
  "admin/plugin.ts -> billing/transactions-repository.ts",
  "admin/plugin.ts -> chat/repository.ts",
]);

/**
 * Cycles that predate the rule, to be broken, never added to: users/repository announces ended
 * sessions (auth/session-events) while auth reads accounts; dashboards takes ADMIN_PREFIX from
 * admin/routes, admin reads billing's totals and billing the dashboards' UTC periods.
 */
export const KNOWN_CYCLES = new Set(["auth <-> users", "admin <-> billing <-> dashboards"]);

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const modulesDir = join(root, "apps/server/src/modules");

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) yield path;
  }
}

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s*["']([^"']+)["']/g;

/** The module a path under modules/ belongs to (null for modules/operator.ts and the like). */
function moduleOf(path) {
  const parts = relative(modulesDir, path).split(sep);
  return parts.length > 1 && !parts[0].startsWith("..") ? parts[0] : null;
}

export function checkBoundaries() {
  const problems = [];
  const edges = new Map();
  for (const file of sourceFiles(modulesDir)) {
    const from = moduleOf(file);
    if (!from) continue;
    if (!(from in ALLOWED)) {
      problems.push(`${relative(root, file)}: module "${from}" is not in ALLOWED`);
      continue;
    }
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (!specifier?.startsWith(".")) continue;
      const target = resolve(dirname(file), specifier);
      const to = moduleOf(target);
      if (!to || to === from) continue;
      const where = `${relative(modulesDir, file)} -> ${relative(modulesDir, target)}`;
      if (!ALLOWED[from].includes(to)) {
        problems.push(`${where}: "${from}" may not import "${to}" (ALLOWED.${from})`);
      }
      const base = target.split(sep).at(-1) ?? "";
      const isRepository = base === "repository.ts" || base.endsWith("-repository.ts");
      if (isRepository && !PUBLIC_REPOSITORIES.has(to) && !KNOWN_REPOSITORY_IMPORTS.has(where)) {
        problems.push(`${where}: reaches into "${to}"'s repository; use its service`);
      }
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from).add(to);
    }
  }
  problems.push(...cycles(edges));
  return problems;
}

/** Every module-level cycle (as "a -> b -> a"), the known ones aside. */
function cycles(edges) {
  const found = [];
  const seen = new Set();
  const walk = (start, node, path) => {
    for (const next of edges.get(node) ?? []) {
      if (next === start) {
        const cycle = [...path, start];
        const key = [...new Set(path)].sort().join(" <-> ");
        if (!seen.has(key) && !KNOWN_CYCLES.has(key)) {
          seen.add(key);
          found.push(`cycle: ${cycle.join(" -> ")}`);
        }
      } else if (!path.includes(next) && next > start) walk(start, next, [...path, next]);
    }
  };
  for (const start of [...edges.keys()].sort()) walk(start, start, [start]);
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkBoundaries();
  if (problems.length > 0) {
    console.error(`Server module boundaries (${BOUNDARIES_DECISION}):`);
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log("Server module boundaries: ok");
}
