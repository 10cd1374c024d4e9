import type { z } from "zod";

/**
 * One route table (issue 29, decision 0086): each endpoint of the API is defined once, here in
 * packages/contracts, with `defineRoute`. The server registers its routes from the definitions
 * (apps/server/src/plugins/routes.ts: validation, the auth guard, the OpenAPI entry), the web
 * calls them through its typed client (apps/web/src/lib/api/route-client.ts: the Bearer token
 * from `access`) and the web's tests answer them with msw handlers keyed by the same definitions
 * (apps/web/src/test/api-mock.ts). No "/api/" literal is written outside packages/contracts/src/
 * routes (scripts/check-api-literals.mjs).
 */

export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call a route: anyone (`public`), a signed-in account of any role (`fan`: the server's
 * requireUser), or an admin (`admin`: requireAdmin; the web sends the admin token).
 */
export type RouteAccess = "public" | "fan" | "admin";

/**
 * `json` (default), `upload` (multipart request), `stream` (server-sent events answer) or `file`
 * (the success answer is bytes, not JSON: audio, a ZIP, an HTML page; `response` types what the
 * web reads and the OpenAPI document lists no schema for it, as it did before the table).
 */
export type RouteKind = "json" | "upload" | "stream" | "file";

/**
 * Where a route is and who may call it, with no schema: the few calls on the landing page's first
 * load, which carries no zod (decision 0033), are made from an address alone.
 */
export interface RouteAddress {
  readonly method: RouteMethod;
  readonly path: string;
  readonly access: RouteAccess;
  readonly kind?: RouteKind;
}

export interface RouteDefinition extends RouteAddress {
  /** One line for the OpenAPI document. */
  readonly summary: string;
  readonly tags: readonly string[];
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The success answer (for a stream: the document's description of what it sends). */
  readonly response: z.ZodType;
  /** The status of `response` when not 200 (a sign-up answers 201). */
  readonly status?: number;
  /** Other success answers by status (201, 304...). */
  readonly otherResponses?: Readonly<Record<number, z.ZodType>>;
  /** The error statuses it may answer with (the error envelope under each). */
  readonly errors?: readonly number[];
  /** Left out of the OpenAPI document. */
  readonly hidden?: boolean;
  /** The answer's media types for the OpenAPI document (a `file` route's HTML page). */
  readonly produces?: readonly string[];
}

/** Defines one endpoint; the object is returned as written, its literal types kept. */
export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters a route's path names, as strings. */
export type PathParams<P extends string> = [ParamNames<P>] extends [never]
  ? undefined
  : Record<ParamNames<P>, string | number>;

/** The path with its `:name` parameters filled in (each URI-encoded). */
export function routePath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`routePath: no value for :${name} of ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** "METHOD /path", a route's key in logs, tests and the table's uniqueness check. */
export function routeKey(route: RouteAddress): string {
  return `${route.method} ${route.path}`;
}

/** The request body a route takes (what the caller sends, before the schema's defaults). */
export type RouteBody<R extends RouteDefinition> = R["body"] extends z.ZodType
  ? z.input<R["body"]>
  : undefined;
/** The query a route takes. */
export type RouteQuery<R extends RouteDefinition> = R["query"] extends z.ZodType
  ? z.input<R["query"]>
  : undefined;
/** The 200 answer as the client reads it (after the schema). */
export type RouteAnswer<R extends RouteDefinition> = z.output<R["response"]>;
/** The 200 answer as the server writes it (before serialisation). */
export type RouteReply<R extends RouteDefinition> = z.input<R["response"]>;
