import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";
import { PNG_1PX, upload } from "../../test/multipart.ts";
import { rawRows } from "../db/raw-rows.ts";
import { createBackup, restoreBackup } from "./archive.ts";
import { BackupError } from "./backup-error.ts";

/**
 * Every row of every table (the app's and drizzle's migration log), in a stable order. The job
 * queue's own schema is left out: it is restored with the rest, but a running app changes it on
 * its own (each scheduled tick is a row).
 */
async function everyTable(t: TestApp): Promise<Record<string, string[]>> {
  const db = t.app.database.db;
  const tables = await rawRows<{ schema: string; name: string }>(
    db,
    sql`select table_schema as schema, table_name as name from information_schema.tables
        where table_type = 'BASE TABLE'
          and table_schema not in ('pg_catalog', 'information_schema', 'pgboss')
        order by 1, 2`,
  );
  const contents: Record<string, string[]> = {};
  for (const { schema, name } of tables) {
    const rows = await rawRows<{ row: string }>(
      db,
      sql`select to_jsonb(t)::text as row from ${sql.identifier(schema)}.${sql.identifier(name)} t`,
    );
    contents[`${schema}.${name}`] = rows.map((r) => r.row).sort();
  }
  return contents;
}

/** name → sha256 of every upload. */
function uploadsOf(dataDir: string): Record<string, string> {
  const root = join(dataDir, "uploads");
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else
        files[path.slice(root.length)] = createHash("sha256")
          .update(readFileSync(path))
          .digest("hex");
    }
  };
  if (existsSync(root)) walk(root);
  return files;
}

async function wipe(t: TestApp): Promise<void> {
  rmSync(join(t.dataDir, "uploads"), { recursive: true, force: true });
  rmSync(join(t.dataDir, "jwt-secret"), { force: true });
  rmSync(join(t.dataDir, "secrets-key"), { force: true });
  if (t.kind === "pglite") {
    rmSync(join(t.dataDir, "pglite"), { recursive: true, force: true });
    return;
  }
  const client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
  try {
    await client.query(
      "drop schema public cascade; drop schema drizzle cascade; create schema public",
    );
  } finally {
    await client.end();
  }
}

let open: TestApp | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe("backups: the restore drill", () => {
  it("seed, back up while serving, wipe, restore: every table, upload and secret is equal, and old sessions still work", {
    timeout: 180_000,
  }, async () => {
    const t = await createTestApp();
    open = t;
    const admin = await adminSession(t);
    const logo = await upload(t, "/api/settings/upload", admin.token, [
      { field: "lightThemeLogo", filename: "logo.png", content: PNG_1PX, contentType: "image/png" },
    ]);
    expect(logo.statusCode, logo.body).toBe(200);
    const fan = await signUp(t, { name: "Drill Fan" });
    for (const message of ["Hello there, I live in Lisbon", "What do you like to cook?"]) {
      const sent = await call(t, "POST", "/api/chat/message", {
        token: fan.token,
        body: { message },
      });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    const tables = await everyTable(t);
    const uploads = uploadsOf(t.dataDir);
    expect(Object.keys(uploads)).toHaveLength(1);
    expect(tables["public.chat_messages"]?.length).toBeGreaterThanOrEqual(4);
    const secret = readFileSync(join(t.dataDir, "jwt-secret"), "utf8");

    const file = join(t.dataDir, "backups", "drill.tar.gz");
    const manifest = await createBackup(
      { connection: t.app.database, databaseUrl: t.databaseUrl, dataDir: t.dataDir },
      file,
    );
    expect(manifest).toMatchObject({
      database: t.kind,
      secrets: ["jwt-secret", "secrets-key", "vapid-keys"],
    });
    expect(manifest.migration).toMatch(/^\d{4}_/);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    await t.close();
    open = undefined;
    await wipe(t);
    const outcome = await restoreBackup({ databaseUrl: t.databaseUrl, dataDir: t.dataDir }, file);
    expect(outcome.manifest.takenAt).toBe(manifest.takenAt);
    expect(readFileSync(join(t.dataDir, "jwt-secret"), "utf8")).toBe(secret);

    const restored = await createTestApp({ sameDatabaseAs: t });
    open = restored;
    expect(await everyTable(restored)).toEqual(tables);
    expect(uploadsOf(restored.dataDir)).toEqual(uploads);
    // The token signed before the backup verifies against the restored secret.
    const me = await call(restored, "GET", "/api/chat/conversations", { token: fan.token });
    expect(me.statusCode, me.body).toBe(200);
    const served = await restored.app.inject({
      method: "GET",
      url: logo.json().data.lightThemeLogo,
    });
    expect(served.rawPayload.equals(PNG_1PX)).toBe(true);
  });

  it("refuses a file that is not a backup, naming it, and changes nothing", async () => {
    const t = await createTestApp();
    open = t;
    await signUp(t);
    const before = await everyTable(t);
    const bogus = join(t.dataDir, "not-a-backup.tar.gz");
    writeFileSync(bogus, "hello");
    await t.close();
    open = undefined;
    await expect(
      restoreBackup({ databaseUrl: t.databaseUrl, dataDir: t.dataDir }, bogus),
    ).rejects.toThrow(
      new BackupError("not-a-backup.tar.gz is not a Twinline backup (not a readable tar.gz)"),
    );
    const again = await createTestApp({ sameDatabaseAs: t });
    open = again;
    expect(await everyTable(again)).toEqual(before);
  });
});
