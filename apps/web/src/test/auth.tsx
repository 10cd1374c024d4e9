import { defaultPublicSettings, routes, type User } from "@twinline/contracts";
import { vi } from "vitest";
import { STORAGE_KEYS } from "@/lib/storage";
import { type ApiCall as MockCall, mockApi, on, onPath, type RouteMock } from "./api-mock";
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

/** A call as a "METHOD /path" record's handler sees it: the msw call and its pathname. */
export type ApiCall = MockCall & { path: string };

type Handler = (call: ApiCall) => Response | Promise<Response>;

/**
 * The fan screens' network, through msw (src/test/api-mock.ts, decision 0086): `mocks` first, as
 * `on(route, ...)` of the table or, for modules not migrated yet, a "METHOD /path" record of
 * handlers or bodies; then the CSRF token, the public settings and the sign-in configuration (no
 * Google). Unknown calls get 404. `fetchMock` spies on fetch (calls go on to msw) for the tests
 * that read or wrap it.
 */
export function mockAuthApi(mocks: RouteMock[] | Record<string, Handler | object> = []) {
  const given = Array.isArray(mocks)
    ? mocks
    : Object.entries(mocks).map(([key, answer]) =>
        onPath(key, async (call) => {
          if (typeof answer !== "function") return answer;
          try {
            return await (answer as Handler)({ ...call, path: call.url.pathname });
          } catch {
            // A handler that throws stood for a failed fetch: a network error, as fetch gives.
            return Response.error();
          }
        }),
      );
  const mocked = mockApi(
    [
      ...given,
      on(routes.security.csrfToken, { csrfToken: "t" }),
      on(routes.auth.config, { googleClientId: null }),
    ],
    { settings: defaultPublicSettings },
  );
  const network = globalThis.fetch;
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => network(input, init));
  vi.stubGlobal("fetch", fetchMock);
  return { ...mocked, fetchMock };
}

export { jsonResponse };
