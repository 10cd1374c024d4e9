import { defineProject } from "vitest/config";
import { TEST_DATABASE_KIND_ENV } from "./test/database-kind.ts";

// The server suites again, on the PostgreSQL of TEST_DATABASE_URL (each test app gets its own
// database there). Without TEST_DATABASE_URL this project has nothing to run.
const enabled = Boolean(process.env.TEST_DATABASE_URL);

export default defineProject({
  test: {
    name: "server-postgres",
    include: enabled ? ["src/**/*.test.ts", "test/**/*.test.ts"] : [],
    exclude: ["**/*.unit.test.ts", "**/node_modules/**"],
    env: { [TEST_DATABASE_KIND_ENV]: "postgres" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
