import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseKind } from "../../test/database-kind.ts";
import { createPreparedQueries, type PreparedQueries } from "./pglite-prepared.ts";

describe.runIf(testDatabaseKind() === "pglite")("PGlite's named statements (decision 0090)", () => {
  let db: PGlite;
  let prepared: PreparedQueries;
  const statements = async () =>
    (await db.query<{ name: string }>("select name from pg_prepared_statements")).rows.length;

  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec("create table words (id int primary key, word text, at timestamptz)");
    prepared = createPreparedQueries(db, 3);
  });
  afterAll(async () => {
    await db?.close();
  });

  it("answers as PGlite's query does: values serialized by type, rows parsed, errors with the statement", async () => {
    const insert = "insert into words (id, word, at) values ($1, $2, $3) returning id, word, at";
    const at = new Date("2026-11-27T10:00:00.000Z");
    const made = await prepared.query(insert, [1, "one", at], {}, false);
    expect(made.rows).toEqual([{ id: 1, word: "one", at }]);
    expect(made.affectedRows).toBe(1);
    const again = await prepared.query(insert, [2, null, null], {}, false);
    expect(again.rows).toEqual([{ id: 2, word: null, at: null }]);
    await expect(prepared.query(insert, [1, "twice", at], {}, false)).rejects.toMatchObject({
      code: "23505",
      query: insert,
    });
    const viaQuery = await db.query("select id, word, at from words order by id");
    const viaPrepared = await prepared.query(
      "select id, word, at from words order by id",
      [],
      {},
      false,
    );
    expect(viaPrepared.rows).toEqual(viaQuery.rows);
  });

  it("keeps the most recently used texts only, closing the oldest", async () => {
    for (let id = 1; id <= 5; id++) {
      await prepared.query(
        `select word from words where id = $1 and ${id} = ${id}`,
        [1],
        {},
        false,
      );
    }
    expect(await statements()).toBe(3);
  });

  it("prepares again, once, a statement whose columns a migration changed", async () => {
    const all = "select * from words where id = $1";
    expect((await prepared.query(all, [1], {}, false)).rows).toEqual([
      expect.objectContaining({ id: 1, word: "one" }),
    ]);
    // A second session's cache that may not prepare again (as in a transaction): it shows the
    // refusal the first one gets past.
    const noRetry = createPreparedQueries(db);
    await noRetry.query(all, [1], {}, true);
    await db.exec("alter table words add column note text");
    await expect(noRetry.query(all, [1], {}, true)).rejects.toMatchObject({ code: "0A000" });
    const after = await prepared.query<Record<string, unknown>>(all, [1], {}, false);
    expect(after.rows[0]).toMatchObject({ id: 1, word: "one", note: null });
  });
});
