import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { types } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { testDatabaseKind } from "../../test/database-kind.ts";
import { openPgliteThread, type PgliteThread } from "./pglite-thread.ts";

// The embedded database's own thread, as drizzle and the migrator use it. PGlite-only: the
// PostgreSQL leg does not run these (the directory is the template PGlite data directory).
const pglite = testDatabaseKind() === "pglite";

describe.runIf(pglite)("the PGlite thread", () => {
  let directory: string;
  let db: PgliteThread;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), "twinline-pglite-thread-"));
    cpSync(inject("pgliteTemplate"), join(directory, "pglite"), { recursive: true });
    db = await openPgliteThread(join(directory, "pglite"));
    await db.exec("create table notes (id int primary key, body text not null)");
  });

  afterAll(async () => {
    await db?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("answers statements with their parameters, as objects or arrays", async () => {
    await db.query("insert into notes values ($1, $2), ($3, $4)", [1, "first", 2, "second"]);
    const objects = await db.query<{ id: number; body: string }>(
      "select id, body from notes order by id",
    );
    expect(objects.rows).toEqual([
      { id: 1, body: "first" },
      { id: 2, body: "second" },
    ]);
    const arrays = await db.query("select id, body from notes where id = $1", [2], {
      rowMode: "array",
    });
    expect(arrays.rows).toEqual([[2, "second"]]);
  });

  it("keeps the text PostgreSQL sent for the types drizzle maps itself", async () => {
    const sql = "select timestamptz '2026-03-14 09:26:53+00' as at";
    const parsed = await db.query<{ at: unknown }>(sql);
    expect(parsed.rows[0]?.at).toBeInstanceOf(Date);
    const text = await db.query<{ at: unknown }>(sql, [], {
      parsers: { [types.TIMESTAMPTZ]: (value: string) => value },
    });
    expect(text.rows[0]?.at).toBe("2026-03-14 09:26:53+00");
  });

  it("refuses a bad statement with PostgreSQL's code and goes on serving", async () => {
    const refused = db.query("insert into notes values (1, 'again')");
    await expect(refused).rejects.toMatchObject({ code: "23505", constraint: "notes_pkey" });
    await expect(refused).rejects.toThrow(/duplicate key/);
    expect((await db.query("select count(*)::int as n from notes")).rows).toEqual([{ n: 2 }]);
  });

  it("commits a transaction, and rolls back one whose work throws", async () => {
    await db.transaction(async (tx) => {
      await tx.query("insert into notes values (10, 'kept')");
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into notes values (11, 'dropped')");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    const ids = await db.query<{ id: number }>("select id from notes where id >= 10");
    expect(ids.rows).toEqual([{ id: 10 }]);
  });

  it("holds other statements until an open transaction ends", async () => {
    let outside: Promise<{ rows: unknown[] }> | undefined;
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into notes values (20, 'never committed')");
        outside = db.query("select count(*)::int as n from notes where id = 20");
        await tx.query("update notes set body = 'still not committed' where id = 20");
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    // Run inside the transaction, it would have seen the row.
    expect((await outside)?.rows).toEqual([{ n: 0 }]);
  });

  it("leaves the app's event loop free while a statement runs", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const started = performance.now();
      await db.query("select count(*) from generate_series(1, 3000000)");
      const ran = performance.now() - started;
      // On the app's own thread the timer could not fire once while the WASM ran.
      expect(ticks).toBeGreaterThan(Math.min(3, Math.floor(ran / 20)));
    } finally {
      clearInterval(timer);
    }
  });
});

describe.runIf(pglite)("a PGlite thread of its own", () => {
  const directories: string[] = [];
  const open = (options: Parameters<typeof openPgliteThread>[1] = {}) => {
    const directory = mkdtempSync(join(tmpdir(), "twinline-pglite-thread-"));
    directories.push(directory);
    cpSync(inject("pgliteTemplate"), join(directory, "pglite"), { recursive: true });
    return openPgliteThread(join(directory, "pglite"), options);
  };
  afterAll(() => {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  it("starts an empty directory from the template, and never copies over a database", async () => {
    const root = mkdtempSync(join(tmpdir(), "twinline-pglite-thread-"));
    directories.push(root);
    const template = inject("pgliteTemplate");
    const fresh = await openPgliteThread(join(root, "pglite"), { template });
    try {
      // The template holds the migrated schema: a table the migrations made answers.
      await expect(fresh.query("select count(*) from users")).resolves.toMatchObject({
        rows: [{ count: 0 }],
      });
      await fresh.exec("create table kept (id int)");
    } finally {
      await fresh.close();
    }
    const reopened = await openPgliteThread(join(root, "pglite"), { template });
    try {
      await expect(reopened.query("select count(*) from kept")).resolves.toMatchObject({
        rows: [{ count: 0 }],
      });
    } finally {
      await reopened.close();
    }
  });

  it("refuses statements once closed", async () => {
    const db = await open();
    await db.close();
    await expect(db.query("select 1")).rejects.toThrow(/database thread/);
  });

  it("gathers the planner's statistics while in use, as autovacuum would", async () => {
    const errors: Error[] = [];
    const db = await open({ maintenanceIntervalMs: 50, onError: (error) => errors.push(error) });
    try {
      await db.exec("create table readings (id int primary key, value int)");
      await db.query("insert into readings select n, n from generate_series(1, 1000) as n");
      const rowsKnown = async () =>
        (
          await db.query<{ tuples: number }>(
            "select reltuples::int as tuples from pg_class where relname = 'readings'",
          )
        ).rows[0]?.tuples;
      await expect.poll(rowsKnown, { timeout: 10_000 }).toBe(1000);
      expect(errors).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
