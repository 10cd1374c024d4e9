import {
  type RouteAddress,
  type RouteDefinition,
  type RouteReply,
  routeKey,
  routePath,
  routes,
} from "@twinline/contracts";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { resetCsrfToken } from "@/lib/api-client";

/**
 * The web tests' network (decision 0086): msw's node interceptors answer fetch and
 * XMLHttpRequest, with handlers keyed by the route table, so a test names the definition it
 * answers (`on(routes.settings.save, ...)`) and msw matches method and path; no test writes an
 * API path of its own. Anything else answers 404 { success: false, message: "Not Found" }.
 */

export interface ApiCall {
  /** The route key ("METHOD /path" as the table writes it) of the handler that answered. */
  key: string;
  method: string;
  url: URL;
  params: Record<string, string>;
  /** The JSON body, parsed; undefined for none or a form. */
  body: unknown;
  /** The multipart body of an upload. */
  form: FormData | undefined;
  headers: Headers;
}

/** What a handler answers: a value (200 JSON), or a Response made with `reply`. */
type Resolved<T> = T | Response;
export type MockResolver<T = unknown> = (call: ApiCall) => Resolved<T> | Promise<Resolved<T>>;

export interface RouteMock {
  method: string;
  path: string;
  resolve: MockResolver;
}

/** Answers a route of the table; the resolver's value is typed by the route's answer. */
export function on<R extends RouteDefinition>(
  route: R,
  resolve: MockResolver<RouteReply<R>> | RouteReply<R>,
): RouteMock {
  return {
    method: route.method,
    path: route.path,
    resolve: typeof resolve === "function" ? (resolve as MockResolver) : () => resolve,
  };
}

/** A JSON answer with a status (an error, a 201...). */
export function reply(body: unknown, status = 200): Response {
  return HttpResponse.json(body as never, { status });
}

let server: ReturnType<typeof setupServer> | undefined;

function listening(): ReturnType<typeof setupServer> {
  if (!server) {
    const started = setupServer();
    started.listen({ onUnhandledRequest: "bypass" });
    server = started;
  }
  return server;
}

/** Drops the handlers of the test that ran (src/test/setup.ts, after each test). */
export function resetApiMocks(): void {
  server?.resetHandlers();
}

async function readCall(request: Request, key: string, params: Record<string, string>) {
  const type = request.headers.get("content-type") ?? "";
  let body: unknown;
  let form: FormData | undefined;
  if (type.includes("multipart/form-data")) {
    form = await request.clone().formData();
  } else {
    const text = await request.clone().text();
    body = text && type.includes("json") ? (JSON.parse(text) as unknown) : text || undefined;
  }
  return {
    key,
    method: request.method,
    url: new URL(request.url),
    params,
    body,
    form,
    headers: request.headers,
  } satisfies ApiCall;
}

function pathPattern(path: string): string {
  // Relative to the page, as the client calls it (base URL "" in tests).
  return `${location.origin}${path}`;
}

export interface MockedApi {
  calls: ApiCall[];
  /** The calls a route answered; with params, only those to the path they fill in. */
  callsTo(route: RouteAddress, params?: Record<string, string | number>): ApiCall[];
}

/**
 * Answers the given routes (the first matching mock wins), the CSRF token and the public
 * settings unless given; records every call.
 */
export function mockApi(mocks: RouteMock[], options: { settings?: unknown } = {}): MockedApi {
  resetCsrfToken();
  const calls: ApiCall[] = [];
  const defaults: RouteMock[] = [on(routes.security.csrfToken, { csrfToken: "csrf-1" })];
  if (options.settings !== undefined) {
    defaults.push(
      on(routes.settings.public, () =>
        options.settings === null
          ? reply({ success: false, message: "Internal Server Error" }, 500)
          : (options.settings as never),
      ),
    );
  }
  const handlers = [...mocks, ...defaults].map((mock) =>
    http[mock.method.toLowerCase() as "get"](
      pathPattern(mock.path),
      async ({ request, params }) => {
        const call = await readCall(
          request,
          `${mock.method} ${mock.path}`,
          params as Record<string, string>,
        );
        calls.push(call);
        const answer = await mock.resolve(call);
        return answer instanceof Response ? answer : HttpResponse.json(answer as never);
      },
    ),
  );
  const notFound = http.all(pathPattern("/*"), async ({ request }) => {
    calls.push(await readCall(request, "unknown", {}));
    return reply({ success: false, message: "Not Found" }, 404);
  });
  listening().use(...handlers, notFound);
  return {
    calls,
    callsTo(route, params) {
      if (!route.path.includes(":") || params) {
        const pathname = params ? routePath(route.path, params) : route.path;
        return calls.filter((c) => c.method === route.method && c.url.pathname === pathname);
      }
      return calls.filter((c) => c.key === routeKey(route));
    },
  };
}
