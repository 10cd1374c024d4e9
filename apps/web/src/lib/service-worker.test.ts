import { describe, expect, it, vi } from "vitest";
import { registerServiceWorker, SERVICE_WORKER_URL } from "./service-worker";

/** A service worker container that fires controllerchange when told to. */
function fakeContainer(controller: object | null) {
  const target = new EventTarget();
  const register = vi.fn().mockResolvedValue({});
  const container = Object.assign(target, { controller, register });
  return {
    container: container as unknown as ServiceWorkerContainer,
    register,
    takeOver: () => target.dispatchEvent(new Event("controllerchange")),
  };
}

describe("registerServiceWorker", () => {
  it("registers /sw.js for the whole site", () => {
    const { container, register } = fakeContainer(null);
    registerServiceWorker(container, { reload: vi.fn() });
    expect(register).toHaveBeenCalledWith(SERVICE_WORKER_URL, { scope: "/" });
  });

  it("does not reload when the first worker claims a page on the first visit", () => {
    const { container, takeOver } = fakeContainer(null);
    const reload = vi.fn();
    registerServiceWorker(container, { reload });
    takeOver();
    expect(reload).not.toHaveBeenCalled();
  });

  it("reloads once when a new build's worker takes over, also after a first visit", () => {
    const reload = vi.fn();
    const returning = fakeContainer({});
    registerServiceWorker(returning.container, { reload });
    returning.takeOver();
    returning.takeOver();
    expect(reload).toHaveBeenCalledTimes(1);

    const firstVisit = fakeContainer(null);
    const reloadFirst = vi.fn();
    registerServiceWorker(firstVisit.container, { reload: reloadFirst });
    firstVisit.takeOver();
    firstVisit.takeOver();
    expect(reloadFirst).toHaveBeenCalledTimes(1);
  });

  it("leaves the app working when registration fails", async () => {
    const { container, register } = fakeContainer(null);
    register.mockRejectedValue(new Error("SecurityError"));
    expect(() => registerServiceWorker(container, { reload: vi.fn() })).not.toThrow();
    await Promise.resolve();
  });
});
