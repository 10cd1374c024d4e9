import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { createMemoryRouter, type RouteObject, RouterProvider } from "react-router";
import { vi } from "vitest";
import { AppProvider } from "@/app/provider";
import { createRoutes } from "@/app/router";
import { resetCsrfToken } from "@/lib/api-client";

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

/** Answers /api/csrf-token and /api/settings (with `settings`, or a failure when null). */
export function mockApi(settings: unknown | null) {
  resetCsrfToken();
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url.endsWith("/api/csrf-token")) return jsonResponse({ csrfToken: "t" });
    if (url.endsWith("/api/settings")) {
      return settings === null
        ? jsonResponse({ success: false, message: "Internal Server Error" }, 500)
        : jsonResponse(settings);
    }
    return jsonResponse({ success: false, message: "Not Found" }, 404);
  });
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
