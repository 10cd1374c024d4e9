import { defineConfig } from "vitest/config";

// Browser tests drive a real Chromium against the built app; one file at a time
// keeps the two-core machine from timing out pages under load.
export default defineConfig({
  test: {
    name: "e2e",
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
