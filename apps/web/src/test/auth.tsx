import { defaultPublicSettings, routes, type User } from "@twinline/contracts";
import { vi } from "vitest";
import { STORAGE_KEYS } from "@/lib/storage";
import { mockApi, on, type RouteMock } from "./api-mock";
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

/**
 * The fan screens' network, through msw (src/test/api-mock.ts, decision 0086): `mocks` first, as
 * `on(route, ...)` of the table; then the CSRF token, the public settings and the sign-in
 * configuration (no Google). Unknown calls get 404. `fetchMock` spies on fetch (calls go on to
 * msw) for the tests that read or wrap it.
 */
export function mockAuthApi(mocks: RouteMock[] = []) {
  const mocked = mockApi(
    [
      ...mocks,
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
