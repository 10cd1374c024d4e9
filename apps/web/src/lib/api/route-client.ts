import {
  type PathParams,
  type RouteAccess,
  type RouteAddress,
  type RouteAnswer,
  type RouteBody,
  type RouteDefinition,
  type RouteQuery,
  routePath,
} from "@twinline/contracts";
import type { z } from "zod";
import { type AnswerSchema, apiRequest, type QueryValue, type RequestOptions } from "./request";
import type { BearerKind } from "./rules";

/**
 * The typed client of the route table (decision 0086): a call names its definition from
 * `routes` (packages/contracts); the method, the path, the Bearer token (from the definition's
 * `access`, never from the URL) and the answer's schema come from it. What is ours stays in the
 * transports below it: the CSRF retry, the 401 handling, upload progress, SSE streams.
 *
 *   const answer = await callRoute(routes.settings.save, { body: settings });
 */

/** The stored token a route is called with: the admin's for admin routes, else the fan's. */
export function tokenFor(access: RouteAccess): BearerKind {
  return access === "admin" ? "admin" : "user";
}

type ParamsOption<R extends RouteAddress> =
  PathParams<R["path"]> extends undefined
    ? { params?: undefined }
    : { params: PathParams<R["path"]> };

type BodyOption<R extends RouteDefinition> = R["kind"] extends "upload"
  ? { body: FormData }
  : R["body"] extends z.ZodType
    ? { body: RouteBody<R> }
    : { body?: undefined };

type QueryOption<R extends RouteDefinition> = R["query"] extends z.ZodType
  ? { query?: RouteQuery<R> }
  : { query?: undefined };

interface CommonOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
  responseType?: RequestOptions["responseType"];
  /**
   * The stored token to send instead of the one `access` names: a public route that shows more
   * to an admin's token (the credit packages, decision 0016) is called by the admin screen with
   * "admin".
   */
  token?: BearerKind;
}

export type CallOptions<R extends RouteDefinition> = CommonOptions &
  ParamsOption<R> &
  BodyOption<R> &
  QueryOption<R>;

/** A route's path with its parameters filled in. */
export function routeUrl(route: RouteAddress, params?: Record<string, string | number>): string {
  return routePath(route.path, params);
}

function requestOptions(
  route: RouteAddress,
  options: CommonOptions & { body?: unknown; query?: unknown },
  schema: z.ZodType | AnswerSchema | undefined,
): RequestOptions {
  return {
    method: route.method,
    body: options.body,
    query: options.query as Record<string, QueryValue> | undefined,
    headers: options.headers,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    responseType: options.responseType,
    token: options.token ?? tokenFor(route.access),
    schema,
  };
}

/** Calls a route and resolves to its answer, parsed by the route's response schema. */
export async function callRoute<R extends RouteDefinition>(
  route: R,
  ...[options]: PathParams<R["path"]> extends undefined
    ? R["body"] extends z.ZodType
      ? [CallOptions<R>]
      : R["kind"] extends "upload"
        ? [CallOptions<R>]
        : [CallOptions<R>?]
    : [CallOptions<R>]
): Promise<RouteAnswer<R>> {
  const given = (options ?? {}) as CommonOptions & {
    params?: Record<string, string | number>;
    body?: unknown;
    query?: unknown;
  };
  const url = routeUrl(route, given.params);
  return (await apiRequest(url, requestOptions(route, given, route.response))) as RouteAnswer<R>;
}

/**
 * Calls a route by its address with a reader instead of the zod schema: only for the answers
 * the landing page reads on its first load, which carries no zod (decision 0033).
 */
export async function callAddress<T>(
  route: RouteAddress,
  reader: AnswerSchema<T>,
  options: CommonOptions & { params?: Record<string, string | number> } = {},
): Promise<T> {
  const url = routeUrl(route, options.params);
  return (await apiRequest(url, requestOptions(route, options, reader))) as T;
}
