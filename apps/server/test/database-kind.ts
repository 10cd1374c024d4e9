/** Which database the current vitest project runs the server suites on (set in its config). */
export type TestDatabaseKind = "pglite" | "postgres";

export const TEST_DATABASE_KIND_ENV = "TWINLINE_TEST_DB";

export function testDatabaseKind(): TestDatabaseKind {
  return process.env[TEST_DATABASE_KIND_ENV] === "postgres" ? "postgres" : "pglite";
}
