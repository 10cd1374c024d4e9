import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";

describe("GET /api/health", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("answers 200 with the database up and its kind", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "ok",
      database: { status: "up", kind: t.kind },
      rateLimits: { store: "memory", status: "up" },
    });
  });

  it("answers 503 degraded when the database does not answer", async () => {
    await t.app.database.close();
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: "degraded",
      database: { status: "down", kind: t.kind },
      rateLimits: { store: "memory", status: "up" },
    });
  });
});
