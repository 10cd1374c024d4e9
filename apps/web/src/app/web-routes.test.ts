import { isKnownWebPath, WEB_ROUTE_PATTERNS } from "@twinline/contracts";
import type { ReactElement, ReactNode } from "react";
import { createRoutesFromChildren, matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { createRoutes } from "./router";
import { AdminRoutes } from "./routes/admin";

const routes = createRoutes();
const concrete = (pattern: string) => pattern.replace(/:[^/]+/g, "x1").replace(/\*$/, "x1");

/** Whether the router's match for `path` ends on its catch-all (the 404 screen). */
function endsOnCatchAll(path: string): boolean {
  const matches = matchRoutes(routes, path) ?? [];
  return matches.at(-1)?.route.path === "*" && matches.length === 2;
}

describe("the shared list of web routes", () => {
  it("routes every known path to a screen, not to the 404 catch-all", () => {
    for (const pattern of WEB_ROUTE_PATTERNS) {
      expect(endsOnCatchAll(concrete(pattern)), pattern).toBe(false);
    }
  });

  it("lists every path the router draws a screen for, so the server answers it with 200", () => {
    const paths: string[] = [];
    const walk = (list: RouteObject[], base: string) => {
      for (const route of list) {
        const path = route.path ? `${base}/${route.path}`.replace(/\/+/g, "/") : base;
        if (route.path && route.path !== "*" && !route.path.endsWith("*")) paths.push(path);
        if (route.children) walk(route.children, path);
      }
    };
    walk(routes, "");
    expect(paths).toContain("/checkout/sandbox/:sessionId");
    for (const path of paths) {
      expect(isKnownWebPath(concrete(path.replace(/:(\w+)\?$/, ""))), path).toBe(true);
    }
  });

  it("lists every screen of the lazily loaded admin area, so a direct load answers 200", () => {
    // The admin table is loaded lazily (router.tsx: admin/*): the walk above never sees it.
    const table = AdminRoutes() as ReactElement<{ children: ReactNode }>;
    const paths: string[] = [];
    const walk = (list: RouteObject[]) => {
      for (const route of list) {
        if (route.path && route.path !== "*") paths.push(`/admin/${route.path}`);
        if (route.children) walk(route.children);
      }
    };
    walk(createRoutesFromChildren(table.props.children));
    expect(paths).toContain("/admin/audit-log");
    for (const path of paths) expect(isKnownWebPath(concrete(path)), path).toBe(true);
  });

  it("sends paths outside the list to the 404 screen", () => {
    for (const path of ["/nope", "/characters/1", "/character"]) {
      expect(isKnownWebPath(path), path).toBe(false);
      expect(endsOnCatchAll(path), path).toBe(true);
    }
  });

  it("matches without case and ignores a trailing slash", () => {
    expect(isKnownWebPath("/admin/login/")).toBe(true);
    expect(isKnownWebPath("/admin/Login")).toBe(true);
    expect(isKnownWebPath("/admin/users/abc/extra")).toBe(false);
  });
});
