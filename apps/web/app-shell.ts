import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Which files of a build the service worker precaches (docs/decisions/0079-installable-app.md):
 * the offline page and what it loads, and what the landing page `/` loads before any
 * lazy import (the entry chunk of index.html and its static imports, with their stylesheets,
 * read from Vite's build manifest). Those the visitor's browser fetched already, so precaching
 * them costs no second download; the lazy screens, the admin bundle above all, are never
 * fetched for a visitor who does not open them (DESIGN.md, front end).
 */
export const SHELL_PUBLIC_FILES = ["offline.html", "offline.js", "theme-init.js", "favicon.svg"];
// Not the app icons (200 KB): the browser fetches them itself when the app is installed, and a
// visitor who never installs it should not download them.

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** The landing page's own JS and CSS files of the build in `distDir`, e.g. "assets/index-Ab12.js". */
export function landingShellFiles(distDir: string): Set<string> {
  const manifest = JSON.parse(
    readFileSync(join(distDir, ".vite", "manifest.json"), "utf8"),
  ) as Record<string, ManifestChunk>;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit("index.html");
  if (files.size === 0) throw new Error("The build manifest has no index.html entry");
  return files;
}
