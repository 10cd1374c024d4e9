import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from "playwright-core";

/** Debian's Chromium, never a downloaded browser (see README). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export interface BrowserOptions {
  /** Chromium switches on top of CHROMIUM_ARGS, e.g. a fake microphone. */
  args?: string[];
  /** The viewport of every page unless `newPage` is given a width. */
  viewport?: { width: number; height: number };
  /** Options of every page's context beyond its viewport, e.g. permissions. */
  contextOptions?: BrowserContextOptions;
  /** Runs in every page before the app's own scripts, e.g. to instrument an API. */
  initScript?: () => void;
}

export interface TestBrowser {
  /**
   * A page in a context of its own: its own cookies and localStorage, so each page can be a
   * different person signed in.
   */
  newPage(width?: number): Promise<Page>;
  /** Closes every page opened so far, for files whose tests share no page. */
  closePages(): Promise<void>;
  /** Closes the pages, then Chromium. */
  close(): Promise<void>;
}

export async function launchBrowser(options: BrowserOptions = {}): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
  const viewport = options.viewport ?? { width: 1280, height: 800 };
  const contexts: BrowserContext[] = [];
  const closePages = async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  };
  return {
    async newPage(width = viewport.width) {
      const context = await browser.newContext({
        ...options.contextOptions,
        viewport: { width, height: viewport.height },
      });
      contexts.push(context);
      if (options.initScript) await context.addInitScript(options.initScript);
      return context.newPage();
    },
    closePages,
    async close() {
      await closePages();
      await browser.close();
    },
  };
}

/** How much wider than the viewport the page is: above 0, the reader has to scroll sideways. */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/**
 * Chromium with a profile on disk, not an off-the-record context: service workers, the
 * notification permission and "installable" live there. `close` removes the profile too.
 */
export async function launchProfileContext(prefix: string) {
  const profileDir = await mkdtemp(join(tmpdir(), `twinline-${prefix}-profile-`));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}
