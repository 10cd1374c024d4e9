import { defineConfig } from "vitest/config";

// One runner for the whole workspace; each package owns its project config.
// The browser tests in e2e/ run separately (npm run test:e2e) after a build.
export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.ts",
      "apps/*/vitest.config.ts",
      // The server suites a second time, on PostgreSQL, when TEST_DATABASE_URL is set.
      "apps/server/vitest.postgres.config.ts",
    ],
  },
});
