import { createRequire } from "node:module";
import { expect } from "@playwright/test";
import type { Page } from "playwright-core";

// axe-core from node_modules, injected into the page: nothing downloads. The page's context
// needs `bypassCSP` (the app's script-src 'self' would refuse the script tag).
const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

async function runAxe(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, { resultTypes: ["violations"] })) as {
      violations: AxeViolation[];
    };
    return result.violations;
  });
}

/** The page's serious and critical violations in the light and the dark theme, as lines. */
export async function sweep(page: Page, label: string): Promise<string[]> {
  const found: string[] = [];
  // Colours are measured settled: transitions between the themes would be caught half-way.
  await page.addStyleTag({
    content: "*,*::before,*::after{transition:none!important;animation:none!important}",
  });
  for (const scheme of ["light", "dark"] as const) {
    // The app follows the system's theme unless the fan chose one (nobody does here).
    await page.emulateMedia({ colorScheme: scheme });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.classList.contains("dark")))
      .toBe(scheme === "dark");
    for (const violation of await runAxe(page)) {
      if (violation.impact !== "serious" && violation.impact !== "critical") continue;
      const targets = violation.nodes
        .slice(0, 3)
        .map((node) => `${node.target.join(" ")}: ${node.failureSummary?.split("\n")[1] ?? ""}`);
      found.push(
        `${label} [${scheme}] ${violation.id} (${violation.impact}, ${violation.nodes.length}x): ${violation.help}\n    ${targets.join("\n    ")}`,
      );
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  return found;
}
