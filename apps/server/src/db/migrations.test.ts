import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/create-test-app.ts";
import { migrationsFolder } from "./migrate.ts";

// Both drivers answer raw queries with `{ rows }`; the shared Database type leaves it open.
async function firstRow(query: Promise<unknown>): Promise<unknown> {
  return ((await query) as { rows: unknown[] }).rows[0];
}

const journal = JSON.parse(readFileSync(join(migrationsFolder(), "meta", "_journal.json"), "utf8"));

describe("database migrations", () => {
  it("are applied at boot, and a restart on the same data keeps it and re-applies nothing", async () => {
    const first = await createTestApp();
    const { db } = first.app.database;
    const countApplied = sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(await firstRow(db.execute(countApplied))).toEqual({ n: journal.entries.length });
    const table = sql`select to_regclass('public.site_settings')::text as name`;
    expect(await firstRow(db.execute(table))).toEqual({ name: "site_settings" });

    await first.app.settings.update({ defaultCredits: 321, aiProfile: { name: "Kept" } });
    await first.close();

    const second = await createTestApp({ sameDatabaseAs: first });
    try {
      const settings = (await second.app.inject({ method: "GET", url: "/api/settings" })).json();
      expect(settings.defaultCredits).toBe(321);
      expect(settings.aiProfile.name).toBe("Kept");
      expect(await firstRow(second.app.database.db.execute(countApplied))).toEqual({
        n: journal.entries.length,
      });
    } finally {
      await second.close();
    }
  });

  it("allow only one settings row", async () => {
    const t = await createTestApp();
    try {
      await expect(
        t.app.database.db.execute(sql`insert into site_settings (singleton) values (false)`),
      ).rejects.toThrow();
    } finally {
      await t.close();
    }
  });
});
