// `npm run lint`: a migration must not drop or rename what a running older instance still reads.
// Deploys roll one instance at a time (docs/deploy.md): expand (add), migrate (backfill, switch
// the code), contract (drop) only in a later release, once no instance of the old code runs. A
// contract step says so in its file with a line `-- contract: <why no running code reads it>`.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const folder = join(root, "apps/server/src/db/migrations");

/** Statements that break the code of a release still serving during a rolling deploy. */
const DESTRUCTIVE = [
  /\bdrop\s+(table|column|schema|type|view|materialized\s+view|function|sequence)\b/i,
  /\brename\s+(to|column|constraint|value)\b/i,
  /\balter\s+column\s+\S+\s+(set\s+data\s+)?type\b/i,
  /\bset\s+not\s+null\b/i,
];

// Shipped before this check existed, each while no deployment ran two versions at once.
const SHIPPED_BEFORE_THE_RULE = new Set(["0014_revenue_per_currency.sql"]);

/** The offending lines of one migration's SQL: [line number, text]. */
export function destructiveLines(sqlText) {
  if (/^--\s*contract:\s*\S/m.test(sqlText)) return [];
  return sqlText
    .split("\n")
    .map((line, index) => [index + 1, line])
    .filter(([, line]) => !line.trim().startsWith("--"))
    .filter(([, line]) => DESTRUCTIVE.some((pattern) => pattern.test(line)));
}

function main() {
  const problems = [];
  for (const name of readdirSync(folder)
    .filter((file) => file.endsWith(".sql"))
    .sort()) {
    if (SHIPPED_BEFORE_THE_RULE.has(name)) continue;
    for (const [line, text] of destructiveLines(readFileSync(join(folder, name), "utf8"))) {
      problems.push(`${name}:${line}: ${text.trim()}`);
    }
  }
  if (problems.length === 0) {
    console.log("Migrations: nothing dropped or renamed");
    return;
  }
  console.error("Migrations that drop or rename what older instances still read:");
  for (const problem of problems) console.error(`  ${problem}`);
  console.error(
    "Expand now and contract in a later release (docs/deploy.md); a deliberate contract step says `-- contract: <why>` in its file.",
  );
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
