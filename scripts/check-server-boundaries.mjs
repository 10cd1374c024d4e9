// The server's module boundaries (docs/decisions/0049), checked on the import graph the way Biome
// guards the web's features; run by `npm run lint`. No dependency: dependency-cruiser parses
// TypeScript through the TypeScript compiler API, which TypeScript 7 does not have, and the
// server's imports are plain static strings, so reading them is enough.
//
// Four rules, for every non-test file under apps/server/src/modules/<X>/:
// 1. X imports only the modules ALLOWED[X] names. The imports are the graph: a module takes
//    the services of others as typed plugin options (`<X>ModuleDeps`, decision 0097), whose
//    types it imports, and app.ts passes exactly those; so what X imports is what it is wired to.
// 2. X reads no decorator another module put on the app (`app.memory` in chat): that would be
//    a dependency no import shows. The modules' decorators are the tests' handle on the app.
// 3. No new cycle between modules (KNOWN_TANGLE: the modules already tied when it was written).
// 4. Nobody outside Y imports Y's repository (repository.ts, *-repository.ts, repository/),
//    unless Y's repository is its public face (PUBLIC_REPOSITORIES) or the import predates the
//    rule (KNOWN_REPOSITORY_IMPORTS, to be removed, never added to).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const BOUNDARIES_DECISION =
  "docs/decisions/0049-operator-loose-ends-and-server-boundaries.md, 0097-one-module-graph.md";

/**
 * Which modules each module may import (decision 0097: its imports are its wiring, since the
 * services it is given are typed by the other modules' types).
 */
export const ALLOWED = {
  admin: ["audit", "auth", "billing", "chat", "users"],
  "ai-training": [],
  audit: [],
  auth: ["credits", "settings", "users"],
  billing: ["audit", "credits", "dashboards", "fan-mail", "push", "users"],
  chat: ["ai-training", "audit", "memory", "push", "settings", "users"],
  credits: ["fan-mail"],
  "fan-mail": ["push", "settings"],
  dashboards: ["chat", "users"],
  health: [],
  jobs: [],
  memory: ["ai-training", "settings"],
  privacy: ["audit", "auth", "billing", "users", "voice"],
  push: ["settings"],
  settings: ["audit"],
  trial: ["auth", "chat", "memory", "settings"],
  users: [],
  voice: ["chat", "credits", "memory", "settings"],
};

/** users has no service: its repository and mapper are what other modules read accounts with. */
export const PUBLIC_REPOSITORIES = new Set(["users"]);

/** Imports of another module's repository that predate the rule (file -> imported file). */
export const KNOWN_REPOSITORY_IMPORTS = new Set(["admin/plugin.ts -> chat/repository.ts"]);

/**
 * The modules still tied in cycles: none. audit, chat and settings left the tangle when paging
 * and date rules moved to lib/; auth and users when the session-end announcements moved to
 * db/session-events.ts; admin, billing and dashboards when dashboards took the admin guard from
 * plugins/admin-scope.ts (issue 29). Any cycle now fails.
 */
export const KNOWN_TANGLE = new Set([]);

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MODULES_DIR = join(root, "apps/server/src/modules");

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) yield path;
  }
}

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s*["']([^"']+)["']/g;

/** The module a path under modulesDir belongs to (null for modules/operator.ts and the like). */
function moduleOf(modulesDir, path) {
  const parts = relative(modulesDir, path).split(sep);
  return parts.length > 1 && !parts[0].startsWith("..") ? parts[0] : null;
}

/** `app.decorate("name", ...)` (with or without a type argument): the decorator a module owns. */
const DECORATION = /\.decorate(?:<[^>]*>)?\(\s*["'](\w+)["']/g;
/**
 * A read of an app decorator: `app.name`, or the instance under another usual name (the
 * modules' plugins and routes name it `app`).
 */
const DECORATOR_USE = /\b(?:app|server|instance|fastify)\.(\w+)\b/g;

/** Which module decorates the app with each name (the rest come from plugins/ and app.ts). */
function decoratorOwners(modulesDir) {
  const owners = new Map();
  for (const file of sourceFiles(modulesDir)) {
    const owner = moduleOf(modulesDir, file);
    if (!owner) continue;
    for (const match of readFileSync(file, "utf8").matchAll(DECORATION))
      owners.set(match[1], owner);
  }
  return owners;
}

/** The problems of the modules under `modulesDir` (default the server's); none when all is well. */
export function checkBoundaries(modulesDir = MODULES_DIR) {
  const problems = [];
  const edges = new Map();
  const owners = decoratorOwners(modulesDir);
  const addEdge = (from, to) => {
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from).add(to);
  };
  for (const file of sourceFiles(modulesDir)) {
    const from = moduleOf(modulesDir, file);
    if (!from) continue;
    if (!(from in ALLOWED)) {
      problems.push(`${relative(modulesDir, file)}: module "${from}" is not in ALLOWED`);
      continue;
    }
    const text = readFileSync(file, "utf8");
    // Another module's decorator is a dependency no import shows: it is passed by app.ts instead.
    for (const name of new Set([...text.matchAll(DECORATOR_USE)].map((match) => match[1]))) {
      const to = owners.get(name);
      if (!to || to === from) continue;
      problems.push(
        `${relative(modulesDir, file)}: "${from}" reads app.${name} of "${to}"; take it as a plugin option typed in its *ModuleDeps, passed by app.ts`,
      );
    }
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (!specifier?.startsWith(".")) continue;
      const target = resolve(dirname(file), specifier);
      const to = moduleOf(modulesDir, target);
      if (!to || to === from) continue;
      const where = `${relative(modulesDir, file)} -> ${relative(modulesDir, target)}`;
      if (!ALLOWED[from].includes(to)) {
        problems.push(`${where}: "${from}" may not import "${to}" (ALLOWED.${from})`);
      }
      const base = target.split(sep).at(-1) ?? "";
      // A repository split into a folder (decision 0092: chat/repository/*.ts) is one still.
      const isRepository =
        base === "repository.ts" ||
        base.endsWith("-repository.ts") ||
        target.split(sep).slice(0, -1).includes("repository");
      if (isRepository && !PUBLIC_REPOSITORIES.has(to) && !KNOWN_REPOSITORY_IMPORTS.has(where)) {
        problems.push(`${where}: reaches into "${to}"'s repository; use its service`);
      }
      addEdge(from, to);
    }
  }
  problems.push(...cycles(edges));
  return problems;
}

/** Each group of modules that import one another in a cycle (Tarjan), the known one aside. */
function cycles(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const groups = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return groups
    .filter((group) => group.some((module) => !KNOWN_TANGLE.has(module)))
    .map((group) => `cycle between ${group.join(", ")} (beyond KNOWN_TANGLE)`);
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
