import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";

const SECRET_DETAIL = "password=hunter2 at /srv/db.ts:42";

const probes: FastifyPluginAsync = async (app) => {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // CSRF is not what these tests are about.
  const config = { csrf: false };
  typed.post(
    "/api/probe/signup",
    {
      config,
      schema: { body: z.object({ email: z.email(), profile: z.object({ age: z.number() }) }) },
    },
    async (request) => ({ success: true, email: request.body.email }),
  );
  typed.get("/api/probe/crash", async () => {
    throw new Error(SECRET_DETAIL);
  });
  typed.get("/api/probe/async-reject", () => Promise.reject(new TypeError(SECRET_DETAIL)));
  // A value the database refuses (SQLSTATE class 22) and a query that is simply wrong.
  typed.get("/api/probe/database-refused", async () =>
    app.database.db.execute(sql`select ${"9999999999999999999999"}::int as n`),
  );
  typed.get("/api/probe/database-broken", async () =>
    app.database.db.execute(sql`select * from no_such_table where x = ${"db-secret-param-77"}`),
  );
};

describe("error answers", () => {
  let t: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({
      register: probes,
      logger: {
        level: "info",
        stream: new Writable({
          write(chunk, _encoding, done) {
            logLines.push(String(chunk));
            done();
          },
        }),
      },
    });
  });
  afterAll(() => t?.close());

  const post = (payload: string, contentType = "application/json") =>
    t.app.inject({
      method: "POST",
      url: "/api/probe/signup",
      headers: { "content-type": contentType },
      payload,
    });

  it("bad JSON gives 400 saying so", async () => {
    const response = await post('{"email": ');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: "Request body is not valid JSON" });
  });

  it("a schema failure gives 400 naming the field", async () => {
    const response = await post(JSON.stringify({ email: "nope", profile: { age: 30 } }));
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.success).toBe(false);
    expect(body.message).toBe("email: Invalid email address");

    const nested = await post(JSON.stringify({ email: "a@b.co", profile: { age: "x" } }));
    expect(nested.statusCode).toBe(400);
    expect(nested.json().message).toMatch(/^profile\.age: /);
  });

  it("valid input reaches the route", async () => {
    const response = await post(JSON.stringify({ email: "a@b.co", profile: { age: 30 } }));
    expect(response.statusCode).toBe(200);
  });

  it("a body over the limit gives 413", async () => {
    const big = JSON.stringify({ email: "a@b.co", pad: "x".repeat(1_100_000) });
    const response = await post(big);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ success: false, message: "Request body is too large" });
  });

  it("an unsupported content type gives 415", async () => {
    const response = await post("<email/>", "application/xml");
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ success: false, message: "Unsupported media type" });
  });

  it("an unknown /api path gives a JSON 404", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/no-such-thing?x=1" });
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      success: false,
      message: "Not found: GET /api/no-such-thing",
    });
  });

  it("a crash gives 500 without any internal detail", async () => {
    for (const url of ["/api/probe/crash", "/api/probe/async-reject"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ success: false, message: "Internal server error" });
      expect(response.body).not.toContain("hunter2");
      expect(response.body).not.toContain("db.ts");
    }
  });

  it("a value the database refuses is a 400 that quotes nothing; a broken query a bare 500", async () => {
    const refused = await t.app.inject({ method: "GET", url: "/api/probe/database-refused" });
    expect(refused.statusCode).toBe(400);
    // Neither line carries the bound parameters (the refused value, the secret).
    const log = logLines.join("");
    expect(log).toContain("Request refused");
    expect(log).not.toContain("9999999999999999999999");
    expect(refused.json()).toEqual({
      success: false,
      message: "The request holds a value that cannot be stored",
    });
    const broken = await t.app.inject({ method: "GET", url: "/api/probe/database-broken" });
    expect(broken.statusCode).toBe(500);
    expect(broken.body).not.toContain("no_such_table");
    expect(logLines.join("")).toContain("no_such_table");
    expect(logLines.join("")).not.toContain("db-secret-param-77");
  });
});

describe("request ids", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("every answer carries an x-request-id, a fresh UUID by default", async () => {
    const a = await t.app.inject({ method: "GET", url: "/api/health" });
    const b = await t.app.inject({ method: "GET", url: "/api/no-such-thing" });
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    expect(a.headers["x-request-id"]).toMatch(uuid);
    expect(b.headers["x-request-id"]).toMatch(uuid);
    expect(a.headers["x-request-id"]).not.toBe(b.headers["x-request-id"]);
  });

  it("reuses a caller's sane id and replaces one that could forge log lines", async () => {
    const kept = await t.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "x-request-id": "lb-7f3a.42" },
    });
    expect(kept.headers["x-request-id"]).toBe("lb-7f3a.42");

    const replaced = await t.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "x-request-id": 'x" injected {"level":60}' },
    });
    expect(replaced.headers["x-request-id"]).not.toContain("injected");
    expect(replaced.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
