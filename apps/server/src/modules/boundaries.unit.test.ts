import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkBoundaries } from "../../../../scripts/check-server-boundaries.mjs";

const SETTINGS_PLUGIN = `
export const settingsModule = fp(async (app) => {
  app.decorate("settings", createSettingsService());
});
`;

let dir: string | undefined;

/** A modules/ folder of the given files (path under it -> text). */
function modulesOf(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), "boundaries-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("npm run lint's server module boundaries (decisions 0049, 0097)", () => {
  it("the server's modules keep them", () => {
    expect(checkBoundaries()).toEqual([]);
  });

  it("a module given another's service as a typed option, by app.ts, passes", () => {
    const modules = modulesOf({
      "settings/plugin.ts": SETTINGS_PLUGIN,
      "memory/plugin.ts": `
import type { SettingsService } from "../settings/service.ts";
export interface MemoryModuleDeps { settings: SettingsService }
export const memoryModule = fp(async (app, { settings }) => {
  app.decorate("memory", createMemoryService({ settings, db: app.database.db }));
});
`,
    });
    expect(checkBoundaries(modules)).toEqual([]);
  });

  it("a module that reads another module's decorator fails, even where it may import it", () => {
    const modules = modulesOf({
      "settings/plugin.ts": SETTINGS_PLUGIN,
      "memory/plugin.ts": `
export const memoryModule = fp(async (app) => {
  app.decorate("memory", createMemoryService({ settings: app.settings }));
});
`,
      "memory/routes.ts": `export const memoryRoutes = async (server) => server.settings.get();`,
    });
    expect(checkBoundaries(modules)).toEqual([
      expect.stringMatching(/^memory\/plugin\.ts: "memory" reads app\.settings of "settings"/),
      expect.stringMatching(/^memory\/routes\.ts: "memory" reads app\.settings of "settings"/),
    ]);
  });

  it("an import ALLOWED does not name fails, and so does the cycle it makes", () => {
    const modules = modulesOf({
      "settings/plugin.ts": `import type { MemoryService } from "../memory/service.ts";`,
      "memory/plugin.ts": `import type { SettingsService } from "../settings/service.ts";`,
    });
    expect(checkBoundaries(modules)).toEqual([
      'settings/plugin.ts -> memory/service.ts: "settings" may not import "memory" (ALLOWED.settings)',
      "cycle between memory, settings (beyond KNOWN_TANGLE)",
    ]);
  });
});
