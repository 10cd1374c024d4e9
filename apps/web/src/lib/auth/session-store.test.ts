import { routes } from "@twinline/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { on } from "@/test/api-mock";
import { jsonResponse, makeUser, mockAuthApi, storeSession } from "@/test/auth";
import { callRoute } from "../api-client";
import { STORAGE_KEYS } from "../storage";
import { normalizeUser, SessionStore } from "./session-store";

afterEach(() => {
  vi.useRealTimers();
});

function clockAt(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("session start-up", () => {
  it("shows the stored user at once, then refreshes it from GET /api/auth/me", async () => {
    storeSession(makeUser({ credits: 10 }));
    const { callsTo } = mockAuthApi([
      on(routes.auth.me, { success: true, data: makeUser({ credits: 55 }) }),
    ]);
    const store = new SessionStore();
    expect(store.getState()).toMatchObject({ status: "authenticated", user: { credits: 10 } });
    await store.start();
    expect(callsTo(routes.auth.me)).toHaveLength(1);
    expect(callsTo(routes.auth.me)[0]?.headers.get("Authorization")).toBe("Bearer user-token");
    expect(store.getState().user?.credits).toBe(55);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.userData) ?? "{}").credits).toBe(55);
  });

  it("logs out when the start-up refresh answers 401", async () => {
    storeSession();
    mockAuthApi([
      on(routes.auth.me, () => jsonResponse({ success: false, message: "Not authorized" }, 401)),
    ]);
    const store = new SessionStore();
    await store.start();
    expect(store.getState()).toEqual({ status: "anonymous", user: null });
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.userData)).toBeNull();
  });

  it("marks the start failed, keeping the token, when the refresh fails otherwise", async () => {
    storeSession();
    mockAuthApi([
      on(routes.auth.me, () => jsonResponse({ success: false, message: "Server down" }, 500)),
    ]);
    const store = new SessionStore();
    await store.start();
    expect(store.getState()).toMatchObject({ startFailed: true });
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBe("user-token");
  });

  it("is loading while a token without user data is checked", async () => {
    storeSession(null);
    mockAuthApi([on(routes.auth.me, { success: true, data: makeUser() })]);
    const store = new SessionStore();
    expect(store.getState().status).toBe("loading");
    await store.start();
    expect(store.getState()).toMatchObject({
      status: "authenticated",
      user: { name: "Loyal Fan" },
    });
  });

  it("drops user data left without a token and makes no call", async () => {
    localStorage.setItem(STORAGE_KEYS.userData, JSON.stringify(makeUser()));
    const { calls } = mockAuthApi();
    const store = new SessionStore();
    await store.start();
    expect(store.getState().status).toBe("anonymous");
    expect(localStorage.getItem(STORAGE_KEYS.userData)).toBeNull();
    expect(calls).toHaveLength(0);
  });
});

describe("refresh and profile throttles", () => {
  it("skips a refresh within 500 ms of the previous one", async () => {
    storeSession();
    const loadUser = vi.fn(async () => makeUser());
    const clock = clockAt();
    const store = new SessionStore({ now: clock.now, loadUser });
    await store.refreshUser({ force: true });
    expect(loadUser).toHaveBeenCalledTimes(1);
    clock.advance(499);
    await store.refreshUser();
    expect(loadUser).toHaveBeenCalledTimes(1);
    // 500 ms after the previous call, but still inside the 5000 ms profile cache.
    clock.advance(1);
    await store.refreshUser();
    expect(loadUser).toHaveBeenCalledTimes(1);
    clock.advance(5000);
    await store.refreshUser();
    expect(loadUser).toHaveBeenCalledTimes(2);
  });

  it("answers the profile fetch from storage within 5000 ms of the previous fetch", async () => {
    storeSession(makeUser({ credits: 1 }));
    let credits = 2;
    const loadUser = vi.fn(async () => makeUser({ credits: credits++ }));
    const clock = clockAt();
    const store = new SessionStore({ now: clock.now, loadUser });
    expect((await store.fetchProfile()).credits).toBe(2);
    clock.advance(4999);
    expect((await store.fetchProfile()).credits).toBe(2);
    expect(loadUser).toHaveBeenCalledTimes(1);
    clock.advance(1);
    expect((await store.fetchProfile()).credits).toBe(3);
    expect(loadUser).toHaveBeenCalledTimes(2);
    expect((await store.fetchProfile({ force: true })).credits).toBe(4);
  });

  it("works with real timers too (fake clock)", async () => {
    vi.useFakeTimers({ now: 5_000_000 });
    storeSession();
    const loadUser = vi.fn(async () => makeUser());
    const store = new SessionStore({ loadUser });
    await store.refreshUser({ force: true });
    vi.advanceTimersByTime(300);
    await store.refreshUser();
    expect(loadUser).toHaveBeenCalledTimes(1);
  });
});

describe("sign-in, logout and 401", () => {
  it("stores token and user on sign-in and clears both on logout", () => {
    mockAuthApi();
    const store = new SessionStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.signIn({ token: "new-token", user: makeUser({ name: "Grace" }) });
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBe("new-token");
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.userData) ?? "{}").name).toBe("Grace");
    expect(store.getState().status).toBe("authenticated");
    store.logout();
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.userData)).toBeNull();
    expect(store.getState().status).toBe("anonymous");
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("ends the session after any 401 answer", async () => {
    storeSession();
    mockAuthApi([
      on(routes.push.state, () => jsonResponse({ success: false, message: "Not authorized" }, 401)),
    ]);
    const store = new SessionStore();
    await expect(callRoute(routes.push.state)).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBeNull();
    store.handleUnauthorized();
    expect(store.getState().status).toBe("anonymous");
  });

  it("rejects a sign-in answer without token or user", () => {
    const store = new SessionStore();
    expect(() => store.signIn({ token: "", user: makeUser() })).toThrow();
    expect(() => store.signIn({ token: "x", user: { name: "no id" } })).toThrow();
    expect(store.getState().status).toBe("anonymous");
  });
});

describe("normalizeUser", () => {
  it("takes id from _id when absent", () => {
    const { id: _drop, ...withoutId } = makeUser();
    expect(normalizeUser(withoutId)?.id).toBe(withoutId._id);
    expect(normalizeUser(null)).toBeNull();
    expect(normalizeUser({ _id: "x" })).toBeNull();
  });
});
