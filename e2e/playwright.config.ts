import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./support/browser";

// Browser tests drive Debian's Chromium against the built app (npm run build first). One file
// at a time, its tests in order: the two-core machine times pages out under more load, and each
// file starts its own server with its own settings and fakes (support/server.ts, decision 0095).
export default defineConfig({
  testDir: ".",
  testMatch: "*.test.ts",
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  retries: process.env.CI ? 1 : 0,
  outputDir: "artifacts/test-results",
  reporter: [["list"], ["html", { open: "never", outputFolder: "artifacts/report" }]],
  use: {
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    // Tracing every test made the axe sweep 50 % slower (DOM snapshots) to 170 % (with the
    // screencast) on the loaded machine, past its budget: only a retry records, without frames.
    trace: { mode: "on-first-retry", screenshots: false },
  },
});
