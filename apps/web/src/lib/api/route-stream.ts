// Stream routes of the table (decision 0086), apart from route-client so that a caller of
// callAddress (the landing page) does not load the server-sent events parser.
import type { RouteAnswer, RouteDefinition } from "@twinline/contracts";
import { routeUrl, tokenFor } from "./route-client";
import { type ApiStreamOptions, type ApiStreamResult, apiStream } from "./stream";

/** A stream route (server-sent events) through apiStream. */
export function streamRoute<
  R extends RouteDefinition & { kind: "stream" },
  E extends ApiStreamOptions["events"],
>(
  route: R,
  options: Omit<ApiStreamOptions<E, R["response"]>, "token" | "method" | "schema"> & {
    params?: Record<string, string | number>;
  },
): Promise<ApiStreamResult<RouteAnswer<R>>> {
  const { params, ...rest } = options;
  return apiStream(routeUrl(route, params), {
    ...rest,
    method: route.method === "DELETE" ? "POST" : route.method,
    token: tokenFor(route.access),
    schema: route.response,
  }) as Promise<ApiStreamResult<RouteAnswer<R>>>;
}
