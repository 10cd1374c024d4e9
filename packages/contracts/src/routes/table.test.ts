import { describe, expect, it } from "vitest";
import { allRoutes, routeKey, routePath } from "./index";

describe("the route table", () => {
  it("defines each method and path once", () => {
    const keys = allRoutes().map(routeKey);
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("guards every /api/admin route for admins, the login excepted", () => {
    const open = allRoutes().filter(
      (route) =>
        route.path.startsWith("/api/admin") &&
        route.path !== "/api/admin/login" &&
        route.access !== "admin",
    );
    expect(open.map(routeKey)).toEqual([]);
  });

  it("names a params schema exactly when the path has parameters", () => {
    for (const route of allRoutes()) {
      expect(Boolean(route.params), routeKey(route)).toBe(route.path.includes(":"));
    }
  });

  it("fills path parameters, encoded, and refuses a missing one", () => {
    expect(routePath("/api/pages/:slug", { slug: "a b" })).toBe("/api/pages/a%20b");
    expect(routePath("/api/x/:id/y/:n", { id: "u1", n: 2 })).toBe("/api/x/u1/y/2");
    expect(() => routePath("/api/pages/:slug", {})).toThrow(/:slug/);
  });
});
