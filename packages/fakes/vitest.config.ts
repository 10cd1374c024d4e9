import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "fakes", include: ["src/**/*.test.ts"], passWithNoTests: true },
});
