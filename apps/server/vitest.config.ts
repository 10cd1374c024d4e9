import { defineProject } from "vitest/config";
import { TEST_DATABASE_KIND_ENV } from "./test/database-kind.ts";

// The server suites on the embedded PGlite. vitest.postgres.config.ts runs the same suites
// (all but the *.unit.test.ts, which touch no database) on PostgreSQL.
export default defineProject({
  test: {
    name: "server-pglite",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    env: { [TEST_DATABASE_KIND_ENV]: "pglite" },
    globalSetup: ["test/pglite-template.setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
