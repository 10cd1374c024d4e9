import type { BrowserContextOptions, Page } from "playwright-core";
import { ADMIN_ENV } from "./accounts";
import { launchBrowser, type TestBrowser } from "./browser";
import { type RunningServer, startServer } from "./server";

/** The built app with its admin, and one page each for the admin (1280 px) and a fan. */
export interface AdminAndFan {
  server: RunningServer;
  admin: Page;
  fan: Page;
  /** Closes the browser, then the server. */
  close(): Promise<void>;
}

export interface AdminAndFanOptions {
  /** The fan's viewport width: 360 for a phone, 1280 for a laptop. */
  fanWidth: number;
  /** Options of both pages' contexts, e.g. accepting downloads. */
  contextOptions?: BrowserContextOptions;
  /** How long the built server may take to answer its health check (a busy machine). */
  healthTimeoutMs?: number;
}

export async function startAdminAndFan(options: AdminAndFanOptions): Promise<AdminAndFan> {
  const server = await startServer({
    env: ADMIN_ENV,
    ...(options.healthTimeoutMs ? { healthTimeoutMs: options.healthTimeoutMs } : {}),
  });
  let browser: TestBrowser | undefined;
  try {
    browser = await launchBrowser(
      options.contextOptions ? { contextOptions: options.contextOptions } : {},
    );
    const admin = await browser.newPage(1280);
    const fan = await browser.newPage(options.fanWidth);
    const opened = browser;
    return {
      server,
      admin,
      fan,
      async close() {
        await opened.close();
        await server.stop();
      },
    };
  } catch (error) {
    await browser?.close();
    await server.stop();
    throw error;
  }
}
