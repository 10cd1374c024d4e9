import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFromTemplate } from "./start-from-template.ts";

describe("a first start's database from the built template", () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  const scratch = () => {
    const root = mkdtempSync(join(tmpdir(), "twinline-template-"));
    roots.push(root);
    const template = join(root, "template");
    mkdirSync(join(template, "base"), { recursive: true });
    writeFileSync(join(template, "PG_VERSION"), "17\n");
    writeFileSync(join(template, "base", "1"), "pages");
    return { root, template };
  };

  it("copies the template into a directory that is missing or empty", () => {
    const { root, template } = scratch();
    expect(startFromTemplate(join(root, "missing"), template)).toBe(true);
    expect(readFileSync(join(root, "missing", "base", "1"), "utf8")).toBe("pages");
    mkdirSync(join(root, "empty"));
    expect(startFromTemplate(join(root, "empty"), template)).toBe(true);
    expect(readFileSync(join(root, "empty", "PG_VERSION"), "utf8")).toBe("17\n");
  });

  it("never touches a directory that holds a database", () => {
    const { root, template } = scratch();
    const existing = join(root, "existing");
    mkdirSync(existing);
    writeFileSync(join(existing, "PG_VERSION"), "16\n");
    expect(startFromTemplate(existing, template)).toBe(false);
    expect(readFileSync(join(existing, "PG_VERSION"), "utf8")).toBe("16\n");
  });

  it("leaves the directory to PGlite's initdb where no template was built (running from source)", () => {
    const { root } = scratch();
    expect(startFromTemplate(join(root, "fresh"), join(root, "no-template"))).toBe(false);
  });
});
