import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import type { BrowserContext, Page } from "playwright-core";
import { launchProfileContext } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// The installable app (issue 27 item 2, decision 0079): the manifest from the settings, the
// service worker that precaches the shell, the offline page, the API never from a cache, and a
// new build taking over the open page.

const WEB_DIST = resolve(import.meta.dirname, "../apps/web/dist");
// A first start migrates a fresh database: slow on a loaded two-core machine.
const SLOW = 120_000;

let server: RunningServer;
let context: BrowserContext;
let profile: Awaited<ReturnType<typeof launchProfileContext>> | undefined;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(SLOW + 30_000);
  server = await startServer({ healthTimeoutMs: SLOW });
  // A profile on disk, not an off-the-record context: Chromium reports nothing installable
  // in an incognito-like context.
  profile = await launchProfileContext("pwa");
  context = profile.context;
});

test.afterAll(async () => {
  await profile?.close();
  await server?.stop();
});

/**
 * Opens `/` and waits until the service worker controls the page: on the first visit, it
 * controls the next load only (it claims no page it did not serve).
 */
async function openControlledPage(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await page.getByRole("heading", { level: 1 }).waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller))) await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null))
    .toBe(`${server.url}/sw.js`);
  return page;
}

test.describe("the installable app", () => {
  test("links a valid manifest built from the settings, and Chromium reports the app installable", async () => {
    // A first visit: the worker installs, and leaves the page it did not serve to the network.
    const first = await context.newPage();
    await first.goto(`${server.url}/`);
    await first.evaluate(() => navigator.serviceWorker.ready);
    expect(await first.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    await first.close();

    const page = await openControlledPage();
    expect(await page.locator('link[rel="manifest"]').getAttribute("href")).toBe(
      "/manifest.webmanifest",
    );
    expect(await page.locator('meta[name="theme-color"]').getAttribute("content")).toMatch(
      /^#[0-9a-f]{6}$/i,
    );

    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send("Page.getAppManifest", {})) as {
      url: string;
      errors: { message: string }[];
      data?: string;
    };
    expect(manifest.url).toBe(`${server.url}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data ?? "{}")).toMatchObject({
      name: "Twinline",
      start_url: "/",
      scope: "/",
      display: "standalone",
    });

    const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    await page.close();
  });

  test("serves the worker uncached, at the root scope", async () => {
    const response = await fetch(`${server.url}/sw.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/javascript/);
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const page = await openControlledPage();
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.scope),
    ).toBe(`${server.url}/`);
    await page.close();
  });

  test("keeps the shell in its cache, and answers every /api/ call from the network", async () => {
    const page = await openControlledPage();
    // Where each answer came from, as Chromium reports it (its static routes, decision 0079).
    const seen: { path: string; source: string }[] = [];
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    cdp.on("Network.responseReceived", ({ response }) => {
      const router = response.serviceWorkerRouterInfo;
      seen.push({
        path: new URL(response.url).pathname,
        source: router?.actualSourceType ?? (response.fromServiceWorker ? "worker" : "network"),
      });
    });
    await page.reload();
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.evaluate(() => fetch("/api/settings").then((r) => r.json()));

    const api = seen.filter((r) => r.path.startsWith("/api/"));
    expect(api.map((r) => r.path)).toContain("/api/settings");
    expect(api.filter((r) => r.source !== "network")).toEqual([]);
    // The check can fail: the landing page's own scripts do come from the worker's cache.
    const scripts = seen.filter((r) => r.path.startsWith("/assets/index-"));
    expect(scripts.map((r) => r.source)).toContain("cache");
    // And nothing under /api/ was ever stored in any of its caches.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      }
      return urls.map((url) => new URL(url).pathname);
    });
    expect(cached).toContain("/offline.html");
    // The landing page's own scripts and styles are in it: the shell.
    expect(cached.filter((path) => /^\/assets\/index-[\w-]+\.(js|css)$/.test(path))).toHaveLength(
      2,
    );
    // Only the shell: no lazy screen a visitor did not open, no admin code, no VAD model.
    expect(cached.filter((path) => /admin|dashboard|\/vad\/|\/icons\//i.test(path))).toEqual([]);
    expect(cached.filter((path) => path.startsWith("/api/"))).toEqual([]);
    await page.close();
  });

  test("shows its offline page, not the browser's error, when a page is reloaded offline", async () => {
    const page = await openControlledPage();
    const offlineHeading = page.getByRole("heading", { level: 1, name: "You're offline" });
    await context.setOffline(true);
    try {
      await page.reload();
      await offlineHeading.waitFor();
      expect(await page.getByRole("button", { name: "Try again" }).isVisible()).toBe(true);
      // Another page of the app, and the API, likewise: no cached answer stands in for either.
      await page.goto(`${server.url}/dashboard`);
      await offlineHeading.waitFor();
      const api = await page.evaluate(() =>
        fetch("/api/settings").then(
          () => "answered",
          () => "failed",
        ),
      );
      expect(api).toBe("failed");
      await page.goto(`${server.url}/`);
      await offlineHeading.waitFor();
    } finally {
      await context.setOffline(false);
    }
    // Back online, the offline page loads the app by itself.
    await page.getByRole("heading", { level: 1, name: /AI Celebrity Assistant/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await page.close();
  });

  test("lets a new build's worker take over the open page, which reloads onto the new build", async () => {
    test.setTimeout(SLOW);
    const page = await openControlledPage();
    const files = ["index.html", "sw.js", "offline.html"] as const;
    const originals = new Map(
      await Promise.all(
        files.map(async (file) => [file, await readFile(join(WEB_DIST, file), "utf8")] as const),
      ),
    );
    try {
      // What a deploy changes: the page, the offline page and so the worker (its precache list).
      const marker = '<meta name="twinline-build" content="next" />';
      await writeFile(
        join(WEB_DIST, "index.html"),
        originals.get("index.html")?.replace("</head>", `${marker}</head>`) ?? "",
      );
      await writeFile(
        join(WEB_DIST, "offline.html"),
        originals
          .get("offline.html")
          ?.replace("<h1>You're offline</h1>", "<h1>You're offline (next)</h1>") ?? "",
      );
      await writeFile(
        join(WEB_DIST, "sw.js"),
        `${originals.get("sw.js")?.replace(/"revision":"[^"]*","url":"offline\.html"/, '"revision":"next","url":"offline.html"')}\n`,
      );

      await page.evaluate(() => {
        (window as unknown as { oldPage: boolean }).oldPage = true;
      });
      // What the browser does on a navigation: look for a new worker.
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
      // Not expect.poll on page.evaluate: the reload destroys the page's context mid-evaluate, and
      // Playwright's poll stops at that throw (or waits on a call the reload left hanging).
      // waitForFunction checks again in each new document.
      await page.waitForFunction(() => !("oldPage" in window), undefined, { timeout: 20_000 });
      await page.getByRole("heading", { level: 1 }).waitFor();
      expect(await page.locator('meta[name="twinline-build"]').count()).toBe(1);

      // The new worker's shell replaced the old one's: offline shows the new offline page.
      await context.setOffline(true);
      try {
        await page.reload();
        await page.getByRole("heading", { level: 1, name: "You're offline (next)" }).waitFor();
      } finally {
        await context.setOffline(false);
      }
    } finally {
      await Promise.all(
        files.map((file) => writeFile(join(WEB_DIST, file), originals.get(file) ?? "")),
      );
    }
    // The page stays open for afterAll's context close: page.close() after the offline reload
    // under the new worker hung at times (a trace showed every step done, then close pending).
    // A worker update, a reload and an offline reload: past a minute on a loaded machine (the
    // full run timed out here with the unit suite beside it; alone it takes 6 s).
  });
});
