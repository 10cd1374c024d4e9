import {
  type FakeHttpServer,
  type FakeOpenAi,
  startFakeElevenLabs,
  startFakeOpenAi,
  startFakeStripe,
} from "@twinline/fakes";
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfFor, signUp } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";

/**
 * The fuzz walk (issue 12, item 5): every route of the app's OpenAPI document, present and
 * future, gets generated bad bodies, queries and path parameters (wrong types, huge numbers,
 * NUL, lone surrogates, out-of-range dates, deep objects, empty, garbage bytes), as an
 * anonymous caller, a user and the admin. Any 5xx, or a request the server never answers,
 * fails the test with the request that caused it. Bounded: a few runs per route.
 */

const RUNS_PER_ROUTE = 12;
// Only a server that stopped answering gets near this; it is not a speed limit.
const NO_ANSWER_MS = 20_000;

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}
interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface Route {
  method: Method;
  path: string;
  query: string[];
  body: JsonSchema | undefined;
  multipart: boolean;
}

function routesOf(t: TestApp): Route[] {
  const document = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => {
        const content = operation.requestBody?.content ?? {};
        return {
          method: method.toUpperCase() as Method,
          path,
          query: (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
          body: content["application/json"]?.schema,
          // An upload route documents no JSON body: every POST and PUT gets multipart tries too.
          multipart:
            "multipart/form-data" in content ||
            (!content["application/json"] && (method === "post" || method === "put")),
        };
      }),
  );
}

function deep(levels: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

const nastyString = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "%00",
    "\ud800",
    "x\udc00y",
    "\uffff",
    "😀",
    "-1",
    "0",
    "1e309",
    "9999999999999999999999",
    "NaN",
    "0000-01-01",
    "9999-12-31",
    "10000-01-01",
    "-001000-01-01",
    "2024-02-30",
    "../../../etc/passwd",
    "<script>alert(1)</script>",
    "' or 1=1 --",
    "null",
    "00000000-0000-0000-0000-000000000000",
    "a".repeat(70_000),
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 20 }),
);

const nastyScalar = fc.oneof(
  nastyString,
  fc.integer(),
  fc.constantFrom(
    0,
    -1,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 31,
    2 ** 63,
    0.5,
    true,
    false,
    null,
  ),
  fc.double({ noNaN: true }),
);

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: nastyScalar },
  { weight: 1, arbitrary: fc.constantFrom(deep(40), deep(400), [], {}, [[[]]], { __proto__: 1 }) },
  { weight: 1, arbitrary: fc.array(nastyScalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), nastyScalar, { maxKeys: 3 }) },
);

/** An object shaped like the schema (its keys, some dropped), each value bad or nested. */
function shapedLike(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const properties = schema.properties;
  if (!properties || depth > 3) return nastyValue;
  const entries = Object.entries(properties).map(
    ([key, child]) =>
      [key, fc.oneof(nastyValue, shapedLike(child, depth + 1))] as [string, fc.Arbitrary<unknown>],
  );
  return fc.record(Object.fromEntries(entries), { requiredKeys: [] });
}

type Payload = { contentType?: string; payload?: string | Buffer };

function payloads(route: Route): fc.Arbitrary<Payload> {
  const json = (value: unknown): Payload => ({
    contentType: "application/json",
    payload: JSON.stringify(value) ?? "null",
  });
  const boundary = "----fuzzboundary";
  const options: fc.Arbitrary<Payload>[] = [
    fc.constant({}),
    nastyValue.map(json),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => ({
      contentType: "application/json",
      payload: Buffer.from(bytes),
    })),
  ];
  if (route.body) options.push(shapedLike(route.body).map(json), shapedLike(route.body).map(json));
  if (route.multipart) {
    options.push(
      fc
        .tuple(
          fc.constantFrom(
            "multipart/form-data",
            `multipart/form-data; boundary=${boundary}`,
            "multipart/form-data; boundary=",
          ),
          fc.oneof(
            fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
            fc
              .tuple(nastyString, fc.uint8Array({ maxLength: 100 }), fc.boolean())
              .map(([name, bytes, closed]) =>
                Buffer.concat([
                  Buffer.from(
                    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}"\r\n\r\n`,
                  ),
                  Buffer.from(bytes),
                  Buffer.from(closed ? `\r\n--${boundary}--\r\n` : ""),
                ]),
              ),
          ),
        )
        .map(([contentType, payload]) => ({ contentType, payload })),
    );
  }
  return fc.oneof(...options);
}

/**
 * A body the schema likely accepts (empty strings, minimal numbers, the first enum value...),
 * so that one bad field at a time gets past the others and reaches the route's own code.
 */
function sampleOf(schema: JsonSchema | undefined, uuid: string): unknown {
  if (!schema) return null;
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice?.[0])
    return sampleOf(choice.find((option) => option.type !== "null") ?? choice[0], uuid);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (schema.properties || type === "object") {
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([key, child]) => [key, sampleOf(child, uuid)]),
    );
  }
  if (type === "array") return [];
  if (type === "boolean") return true;
  if (type === "integer" || type === "number") return Math.max(schema.minimum ?? 1, 1);
  if (schema.format === "uuid") return uuid;
  if (schema.format === "email") return "fuzz-sample@example.com";
  if (schema.format === "date") return "2024-01-01";
  return "x".repeat(schema.minLength ?? 0);
}

/** Each leaf of the sample in turn replaced by `value`: one body per field. */
function oneFieldBad(sample: unknown, value: unknown): unknown[] {
  if (typeof sample !== "object" || sample === null || Array.isArray(sample)) return [value];
  return Object.entries(sample).flatMap(([key, child]) =>
    oneFieldBad(child, value).map((bad) => ({ ...sample, [key]: bad })),
  );
}

/** Every field of the schema (nested objects too) set to `value`. */
function filledWith(schema: JsonSchema | undefined, value: unknown): unknown {
  if (!schema?.properties) return value;
  return Object.fromEntries(
    Object.entries(schema.properties).map(([key, child]) => [
      key,
      child.properties ? filledWith(child, value) : value,
    ]),
  );
}

type Caller = "anonymous" | "user" | "admin";
type Example = [Caller, string, Record<string, string>, Payload];

/**
 * The known bad inputs, tried on every route before the random ones (fast-check examples): each
 * field NUL, a lone surrogate, a huge number, deep; each query parameter NUL or an impossible
 * date; broken multipart.
 */
function examplesFor(route: Route, userId: string): Example[] {
  const json = (value: unknown): Payload => ({
    contentType: "application/json",
    payload: JSON.stringify(value),
  });
  const bodies: Payload[] = route.body
    ? ["a\u0000b", "\ud800", "x\udfff", 1e308, -1, deep(50), ""].map((value) =>
        json(filledWith(route.body, value)),
      )
    : [{}];
  const boundary = "----fuzzboundary";
  if (route.multipart) {
    bodies.push(
      { contentType: "multipart/form-data", payload: "--x\r\n\r\n" },
      {
        contentType: `multipart/form-data; boundary=${boundary}`,
        payload: Buffer.from([0, 255, 13, 10]),
      },
      {
        contentType: `multipart/form-data; boundary=${boundary}`,
        payload: `--${boundary}\nContent-Disposition: form-data; name="f"; filename="a.png"\n\nabc\n--${boundary}--\n`,
      },
      {
        contentType: `multipart/form-data; boundary=${boundary}`,
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.png"\r\n\r\nabc`,
      },
    );
  }
  const queriesToTry: Record<string, string>[] = [
    ...["\u0000", "10000-01-01", "0000-01-01", "9999-12-31", "99999999999999999999"].map((value) =>
      Object.fromEntries(route.query.map((name) => [name, value])),
    ),
  ];
  const examples: Example[] = [];
  if (route.body) {
    // As the admin (who passes requireUser and requireAdmin alike): one bad field at a time.
    const sample = sampleOf(route.body, userId);
    for (const value of ["a\u0000b", "\ud800x", 1e308, deep(30)]) {
      for (const body of oneFieldBad(sample, value))
        examples.push(["admin", userId, {}, json(body)]);
    }
  }
  for (const caller of ["admin", "user"] as const) {
    for (const payload of bodies) examples.push([caller, userId, {}, payload]);
    if (route.query.length > 0) {
      for (const query of queriesToTry) examples.push([caller, userId, query, {}]);
    }
    if (route.path.includes("{")) examples.push([caller, "a\u0000b", {}, {}]);
  }
  return examples;
}

function queries(route: Route): fc.Arbitrary<Record<string, string>> {
  const names = [...route.query, "unknown"];
  const value = fc.oneof(nastyString, fc.integer().map(String), fc.double().map(String));
  return fc
    .record(Object.fromEntries(names.map((name) => [name, value])), { requiredKeys: [] })
    .map((query) => query as Record<string, string>);
}

describe("the fuzz walk: every route, bad input, three callers, never a 5xx", () => {
  let t: TestApp;
  let fakes: [FakeOpenAi, FakeHttpServer, FakeHttpServer];
  let userId: string;
  let tokenFor: (caller: Caller) => Promise<string | undefined>;

  beforeAll(async () => {
    fakes = await Promise.all([startFakeOpenAi(), startFakeStripe(), startFakeElevenLabs()]);
    t = await createTestApp({
      // Key tests reach local fakes (which refuse the fuzzed keys), never the Internet.
      env: {
        OPENAI_BASE_URL: fakes[0].baseUrl,
        STRIPE_API_BASE: fakes[1].origin,
        ELEVENLABS_BASE_URL: fakes[2].origin,
      },
    });
    const user = await signUp(t);
    userId = user.user.id;
    await t.app.auth.syncAdmin({ email: "fuzz-admin@example.com", password: "fuzz admin pw" });
    const admin = await t.app.users.findByEmail("fuzz-admin@example.com");
    if (!admin) throw new Error("no admin");
    // A fresh token for every request: a fuzzed logout ends only its own.
    tokenFor = async (caller) => {
      if (caller === "anonymous") return undefined;
      const row = await t.app.users.findById(caller === "admin" ? admin.id : userId);
      return row ? t.app.tokens.sign(row) : undefined;
    };
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all((fakes ?? []).map((fake) => fake?.close()));
  });

  // About 20 s alone on this machine; the limit leaves room for a loaded CI machine.
  it("walks every route of the OpenAPI document", { timeout: 180_000 }, async () => {
    const routes = routesOf(t);
    expect(routes.length).toBeGreaterThan(30);
    const csrf = await csrfFor(t);
    const failures: string[] = [];

    for (const route of routes) {
      const pathParams = fc.oneof(nastyString, fc.constant(userId), fc.uuid());
      const examples = examplesFor(route, userId);
      await fc
        .assert(
          fc.asyncProperty(
            fc.oneof(
              { weight: 6, arbitrary: fc.constant<Caller>("admin") },
              { weight: 3, arbitrary: fc.constant<Caller>("user") },
              { weight: 1, arbitrary: fc.constant<Caller>("anonymous") },
            ),
            pathParams,
            queries(route),
            payloads(route),
            async (caller, param, query, body) => {
              const url = route.path.replace(/\{[^}]+\}/g, encodeURIComponent(param));
              const token = await tokenFor(caller);
              let timer: NodeJS.Timeout | undefined;
              const answered = t.app.inject({
                method: route.method,
                url,
                query,
                headers: {
                  "csrf-token": csrf.token,
                  ...(token ? { authorization: `Bearer ${token}` } : {}),
                  ...(body.contentType ? { "content-type": body.contentType } : {}),
                },
                cookies: { _csrf: csrf.cookie },
                ...(body.payload !== undefined ? { payload: body.payload } : {}),
              });
              const response = await Promise.race([
                answered,
                new Promise<"no answer">((resolve) => {
                  timer = setTimeout(() => resolve("no answer"), NO_ANSWER_MS);
                }),
              ]).finally(() => clearTimeout(timer));
              const label = `${route.method} ${url.slice(0, 200)} as ${caller}, query ${JSON.stringify(query).slice(0, 200)}, body ${String(body.payload ?? "").slice(0, 200)}`;
              if (response === "no answer") {
                failures.push(`no answer: ${label}`);
                return false;
              }
              const status = (response as LightMyRequestResponse).statusCode;
              if (status >= 500) {
                failures.push(`${status}: ${label}: ${(response as LightMyRequestResponse).body}`);
                return false;
              }
              return true;
            },
          ),
          // fast-check counts the examples in numRuns: the random runs come on top.
          { numRuns: examples.length + RUNS_PER_ROUTE, endOnFailure: true, examples },
        )
        .catch(() => {
          // Every failing route is listed below, not only the first.
        });
    }
    expect(failures).toEqual([]);
  });
});
