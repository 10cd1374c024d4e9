import { useCallback, useState } from "react";
import {
  createBrowserRouter,
  Navigate,
  Outlet,
  type RouteObject,
  RouterProvider,
  ScrollRestoration,
  useNavigate,
} from "react-router";
import { RouteErrorScreen } from "@/components/errors/route-error-screen";
import { PageSpinner } from "@/components/ui/spinner";
import { type AppNavigate, NavigationProvider } from "@/lib/navigation";
import { LandingRoute } from "./routes/landing";
import { NotFoundRoute } from "./routes/not-found";

/**
 * The route table (user-side spec, section 2; admin-side spec, section 2).
 *
 * Built so far: `/`, the auth pages, `/dashboard/*` (shell, overview card, profile) and the
 * legacy redirects; every other path falls through to the 404 screen until the issue that builds
 * it adds its route here.
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
  // User side (issue 3): auth pages and the dashboard are lazy, so the landing bundle stays small.
  { path: "auth", lazy: () => import("./routes/auth").then((m) => ({ Component: m.AuthRoute })) },
  {
    path: "reset-password/:resettoken?",
    lazy: () => import("./routes/auth").then((m) => ({ Component: m.ResetPasswordRoute })),
  },
  {
    path: "dashboard",
    lazy: () => import("./routes/dashboard").then((m) => ({ Component: m.DashboardLayoutRoute })),
    children: [
      {
        index: true,
        lazy: () => import("./routes/dashboard").then((m) => ({ Component: m.DashboardHomeRoute })),
      },
      {
        path: "profile",
        lazy: () => import("./routes/dashboard").then((m) => ({ Component: m.ProfileRoute })),
      },
      {
        path: "chat",
        lazy: () => import("@/features/chat").then((m) => ({ Component: m.ChatRoute })),
      },
      // Call, call history, credits and transactions arrive with their issues; until
      // then they, like any unknown sub-route, lead to the overview.
      { path: "*", element: <Navigate to="/dashboard" replace /> },
    ],
  },
  {
    path: "dashboard-old",
    lazy: () => import("./routes/dashboard").then((m) => ({ Component: m.DashboardOldRoute })),
  },
  { path: "chat", element: <Navigate to="/dashboard/chat" replace /> },
  { path: "character-chat/:id", element: <Navigate to="/dashboard/chat" replace /> },
  // Later issues: character/:id.
  { path: "admin/*", lazy: () => import("./routes/admin") },
  { path: "*", Component: NotFoundRoute },
];

function RootLayout() {
  const routerNavigate = useNavigate();
  // lib/navigation's navigate (landing sections, login modal) is the router's own here.
  const navigate = useCallback<AppNavigate>(
    (to, options) => void routerNavigate(to, options),
    [routerNavigate],
  );
  return (
    <NavigationProvider value={navigate}>
      <Outlet />
      <ScrollRestoration />
    </NavigationProvider>
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

/** The app under the router, at the browser's address (app.tsx loads this module lazily). */
export function RoutedApp() {
  const [router] = useState(createAppRouter);
  return <RouterProvider router={router} />;
}
