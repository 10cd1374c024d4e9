import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { routes } from "@twinline/contracts";
import { createMemoryRouter, type RouteObject, RouterProvider } from "react-router";
import { vi } from "vitest";
import { AppProvider } from "@/app/provider";
import { createRoutes } from "@/app/router";
import { mockApi as mockNetwork, on } from "./api-mock";

export function testQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY } },
  });
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/**
 * Answers the CSRF token and the public settings (with `settings`, or a failure when null)
 * through msw (src/test/api-mock.ts); anything else 404. Returns a spy on fetch (calls go on to
 * msw).
 */
export function mockApi(settings: unknown | null) {
  mockNetwork([on(routes.security.csrfToken, { csrfToken: "t" })], { settings });
  const network = globalThis.fetch;
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => network(input, init));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** Renders the real app (providers + route table) at `path`. */
export function renderApp(path = "/", routes?: RouteObject[]) {
  const router = createMemoryRouter(createRoutes(routes), { initialEntries: [path] });
  const utils = render(
    <AppProvider queryClient={testQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...utils, router };
}
