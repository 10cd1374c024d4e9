import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseKind } from "../../test/database-kind.ts";
import { NamedStatementsClient, statementName } from "./named-statements-client.ts";

// node-postgres's client on PostgreSQL (PGlite has its own: pglite-prepared.ts).
const postgres = testDatabaseKind() === "postgres";

describe.runIf(postgres)("statements named by their text (decision 0090)", () => {
  const table = `named_${randomBytes(4).toString("hex")}`;
  let client: NamedStatementsClient;
  const prepared = async () =>
    (await client.query("select name from pg_prepared_statements order by name")).rows.map(
      (row: { name: string }) => row.name,
    );

  beforeAll(async () => {
    client = new NamedStatementsClient({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    await client.query(`create table ${table} (id int primary key, word text)`);
  });
  afterAll(async () => {
    await client?.query(`drop table if exists ${table}`);
    await client?.end();
  });

  it("parses a statement with values once per connection, and answers it each time", async () => {
    const text = `insert into ${table} (id, word) values ($1, $2) returning id, word`;
    const first = await client.query(text, [1, "one"]);
    const second = await client.query({ text, values: [2, "two"] });
    expect([...first.rows, ...second.rows]).toEqual([
      { id: 1, word: "one" },
      { id: 2, word: "two" },
    ]);
    expect(await prepared()).toContain(statementName(text));
  });

  it("leaves a text without values to the simple protocol: several statements in one", async () => {
    await client.query(`update ${table} set word = 'uno' where id = 1; select 1`);
    const read = await client.query(`select word from ${table} where id = $1`, [1]);
    expect(read.rows).toEqual([{ word: "uno" }]);
  });

  it("follows a table changed under a named statement; one whose columns changed fails once, then runs unnamed", async () => {
    const read = `select word from ${table} where id = $1`;
    const all = `select * from ${table} where id = $1`;
    expect((await client.query(all, [2])).rows).toEqual([{ id: 2, word: "two" }]);
    // Another instance's migration adds a column.
    await client.query(`alter table ${table} add column note text`);
    // Analysed again by PostgreSQL: a statement whose answer keeps its columns runs on.
    expect((await client.query(read, [2])).rows).toEqual([{ word: "two" }]);
    // One whose columns changed is refused once on this connection, then runs unnamed.
    await expect(client.query(all, [2])).rejects.toMatchObject({ code: "0A000" });
    expect((await client.query(all, [2])).rows).toEqual([{ id: 2, word: "two", note: null }]);
    expect((await client.query({ text: all, values: [1] })).rows).toEqual([
      { id: 1, word: "uno", note: null },
    ]);
  });
});
