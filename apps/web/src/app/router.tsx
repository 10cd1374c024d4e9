import { createBrowserRouter, Outlet, type RouteObject, ScrollRestoration } from "react-router";
import { RouteErrorScreen } from "@/components/errors/route-error-screen";
import { PageSpinner } from "@/components/ui/spinner";
import { LandingRoute } from "./routes/landing";
import { NotFoundRoute } from "./routes/not-found";

/**
 * The route table (user-side spec, section 2; admin-side spec, section 2).
 *
 * Only `/` is built so far; every other path, including /auth, /dashboard/* and /admin/*, falls
 * through to the 404 screen until the issue that builds it adds its route here.
 *
 * Extending: add a RouteObject to `appRoutes` (before the catch-all). Screens outside the landing
 * page should be lazy so they are split into their own bundle, e.g.
 *
 *   { path: "admin/*", lazy: () => import("./routes/admin").then((m) => ({ Component: m.AdminRoutes })) }
 *
 * A visitor never downloads a lazy route's code unless they open it.
 */
export const appRoutes: RouteObject[] = [
  { index: true, Component: LandingRoute },
  // Later issues: auth, character/:id, character-chat/:id, chat, dashboard-old, dashboard/*,
  // reset-password/:resettoken, admin/* (lazy, separate bundle).
  { path: "admin/*", lazy: () => import("./routes/admin") },
  { path: "*", Component: NotFoundRoute },
];

function RootLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/** The whole tree: one root with the error element, the loading fallback and the app routes. */
export function createRoutes(children: RouteObject[] = appRoutes): RouteObject[] {
  return [
    {
      id: "root",
      Component: RootLayout,
      ErrorBoundary: RouteErrorScreen,
      HydrateFallback: PageSpinner,
      children,
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(createRoutes());
}
