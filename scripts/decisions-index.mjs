// docs/decisions/README.md, the index of the decision records, made from the records themselves:
// `node scripts/decisions-index.mjs` writes it; `--check` (npm run lint) fails when it is stale,
// when a record lacks its `Status:` first line or its `# NNNN: title`, or when two share a number.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const folder = fileURLToPath(new URL("../docs/decisions", import.meta.url));
const indexPath = join(folder, "README.md");

function records() {
  const problems = [];
  const seen = new Map();
  const rows = readdirSync(folder)
    .filter((name) => /^\d{4}-.+\.md$/.test(name))
    .sort()
    .map((name) => {
      const lines = readFileSync(join(folder, name), "utf8").split("\n");
      const number = name.slice(0, 4);
      const status = /^Status: (.+)$/.exec(lines[0] ?? "")?.[1];
      const title = lines.map((line) => /^# (\d{4}): (.+)$/.exec(line)).find(Boolean);
      if (!status) problems.push(`${name}: the first line must be "Status: …"`);
      if (!title) problems.push(`${name}: no "# ${number}: <title>" heading`);
      else if (title[1] !== number) problems.push(`${name}: its heading says ${title[1]}`);
      if (seen.has(number)) problems.push(`${name}: number ${number} is also ${seen.get(number)}`);
      seen.set(number, name);
      return { name, number, title: title?.[2] ?? name, status: status ?? "?" };
    });
  return { rows, problems };
}

function render(rows) {
  const cell = (text) => text.replaceAll("|", "\\|");
  return [
    "# Decision records",
    "",
    "One short record per decision: its context, what was decided and what follows. Made by",
    "`node scripts/decisions-index.mjs` from the records (`npm run lint` checks it is current).",
    "",
    "| # | decision | status |",
    "|---|---|---|",
    ...rows.map((r) => `| ${r.number} | [${cell(r.title)}](${r.name}) | ${cell(r.status)} |`),
    "",
  ].join("\n");
}

const { rows, problems } = records();
const wanted = render(rows);
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(indexPath, "utf8");
  } catch {}
  if (current !== wanted)
    problems.push("docs/decisions/README.md is stale: run node scripts/decisions-index.mjs");
  if (problems.length > 0) {
    console.error(`Decision records:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log(`Decision records: ${rows.length}, index current`);
} else {
  writeFileSync(indexPath, wanted);
  for (const problem of problems) console.error(problem);
  console.log(`Wrote docs/decisions/README.md (${rows.length} records)`);
}
