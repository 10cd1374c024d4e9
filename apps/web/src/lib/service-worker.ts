/**
 * Registers the service worker (dist/sw.js, docs/decisions/0079-installable-app.md) once the page
 * has loaded, so it never competes with the first paint, and reloads the page when a new build's
 * worker takes over: the page then runs the new build's code with the new build's files.
 */
export const SERVICE_WORKER_URL = "/sw.js";

export function registerServiceWorker(
  container: ServiceWorkerContainer | undefined = navigator.serviceWorker,
  location: Pick<Location, "reload"> = window.location,
): void {
  if (!container) return;
  // A page changes worker when a new build's worker replaces the one that served it: reload. The
  // first worker never claims a page it did not serve (sw/sw.ts), but if a browser made it do so,
  // nothing would be stale, so that first change does not reload.
  let controlled = Boolean(container.controller);
  let reloading = false;
  container.addEventListener("controllerchange", () => {
    if (!controlled) {
      controlled = true;
      return;
    }
    if (reloading) return;
    reloading = true;
    location.reload();
  });
  container.register(SERVICE_WORKER_URL, { scope: "/" }).catch(() => {
    // Without a worker the app works as before, only not offline; nothing to tell the visitor.
  });
}

/** In a production build, registers the worker after the page's load event. */
export function registerServiceWorkerAfterLoad(): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  if (document.readyState === "complete") registerServiceWorker();
  else window.addEventListener("load", () => registerServiceWorker(), { once: true });
}
