import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";
import { backupFileName, runScheduledBackup } from "./schedule.ts";

const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0).reverse()) await t.close();
});

const quietLog = { info() {}, error() {} };
const optionsFor = (t: TestApp, dir: string) => ({
  connection: t.app.database,
  databaseUrl: t.databaseUrl,
  dataDir: t.dataDir,
  dir,
  log: quietLog,
});

describe("scheduled backups", () => {
  it("a night's backup joins the folder and the old ones beyond 7 days, 4 weeks and 6 months go", async () => {
    const t = await createTestApp();
    opened.push(t);
    const dir = join(t.dataDir, "scheduled");
    mkdirSync(dir);
    const now = new Date("2026-11-26T03:00:00Z");
    // Nightly backups for the 400 nights before, and a file of the operator's own.
    for (let night = 1; night <= 400; night++) {
      writeFileSync(join(dir, backupFileName(new Date(now.getTime() - night * 86_400_000))), "");
    }
    writeFileSync(join(dir, "keep-me.txt"), "mine");
    await runScheduledBackup(optionsFor(t, dir), now);
    const left = readdirSync(dir).sort();
    expect(left).toContain(backupFileName(now));
    expect(left).toContain("keep-me.txt");
    // 7 days (Nov 20–26, tonight a Thursday); the weeks: this one and the last (their newest are
    // among those days) and the two before (Sundays Nov 15 and 8); the months: November's is
    // tonight's, then the ends of October to June.
    expect(left).toHaveLength(1 + 7 + 2 + 5);
    expect(left).toContain(backupFileName(new Date("2026-11-08T03:00:00Z")));
    expect(left).not.toContain(backupFileName(new Date("2026-11-01T03:00:00Z")));
    expect(left).toContain(backupFileName(new Date("2026-06-30T03:00:00Z")));
    expect(left).not.toContain(backupFileName(new Date("2026-05-31T03:00:00Z")));
  });
});
