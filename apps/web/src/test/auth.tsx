import { defaultPublicSettings, type User } from "@twinline/contracts";
import { vi } from "vitest";
import { resetCsrfToken } from "@/lib/api-client";
import { STORAGE_KEYS } from "@/lib/storage";
import { jsonResponse } from "./render";

/** A user as the server sends it. */
export function makeUser(overrides: Partial<User> = {}): User {
  return {
    _id: "7f1c2d3e-0000-4000-8000-000000000001",
    id: "7f1c2d3e-0000-4000-8000-000000000001",
    name: "Loyal Fan",
    email: "ada@example.com",
    role: "user",
    googleId: null,
    profileImage: null,
    credits: 100,
    subscription: { status: "inactive", planId: null, planName: null, endDate: null },
    createdAt: "2025-01-01T00:00:00.000Z",
    dateOfBirth: "1990-05-17",
    ...overrides,
  };
}

/** Puts a session in storage, as a previous visit would have left it. */
export function storeSession(user: User | null = makeUser(), token = "user-token") {
  localStorage.setItem(STORAGE_KEYS.userToken, token);
  if (user) localStorage.setItem(STORAGE_KEYS.userData, JSON.stringify(user));
}

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
}

type Handler = (call: ApiCall) => Response | Promise<Response>;

/**
 * Stubs fetch: /api/csrf-token, /api/settings (defaults) and /api/auth/config (no Google) are
 * answered unless `routes` has them; `routes` maps "METHOD /path" to a handler or a body.
 * Unmatched calls get 404. Returns the recorded calls.
 */
export function mockAuthApi(routes: Record<string, Handler | object> = {}) {
  resetCsrfToken();
  const calls: ApiCall[] = [];
  const all: Record<string, Handler | object> = {
    "GET /api/csrf-token": { csrfToken: "t" },
    "GET /api/settings": defaultPublicSettings,
    "GET /api/auth/config": { googleClientId: null },
    ...routes,
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = (init?.method ?? "GET").toUpperCase();
    const text = typeof init?.body === "string" ? init.body : undefined;
    const call: ApiCall = {
      method,
      path: url.pathname,
      body: text ? JSON.parse(text) : undefined,
      headers: new Headers(init?.headers),
    };
    if (url.pathname !== "/api/csrf-token") calls.push(call);
    const route = all[`${method} ${url.pathname}`];
    if (route === undefined) return jsonResponse({ success: false, message: "Not Found" }, 404);
    return typeof route === "function" ? (route as Handler)(call) : jsonResponse(route);
  });
  vi.stubGlobal("fetch", fetchMock);
  return {
    calls,
    fetchMock,
    callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key),
  };
}

export { jsonResponse };
