import { SITE_PAGE_SLUGS } from "@twinline/contracts";
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
        lazy: () => import("./routes/chat").then((m) => ({ Component: m.ChatRoute })),
      },
      {
        path: "credits",
        lazy: () => import("./routes/billing").then((m) => ({ Component: m.CreditsRoute })),
      },
      {
        path: "transactions",
        lazy: () => import("./routes/billing").then((m) => ({ Component: m.TransactionsRoute })),
      },
      {
        path: "call",
        lazy: () => import("./routes/call").then((m) => ({ Component: m.CallRoute })),
      },
      {
        path: "call-history",
        lazy: () =>
          import("@/features/call-history").then((m) => ({ Component: m.CallHistoryRoute })),
      },
      // Any other sub-route leads to the overview.
      { path: "*", element: <Navigate to="/dashboard" replace /> },
    ],
  },
  {
    path: "dashboard-old",
    lazy: () => import("./routes/dashboard").then((m) => ({ Component: m.DashboardOldRoute })),
  },
  { path: "chat", element: <Navigate to="/dashboard/chat" replace /> },
  { path: "character-chat/:id", element: <Navigate to="/dashboard/chat" replace /> },
  {
    lazy: () => import("./routes/site").then((m) => ({ Component: m.SiteLayoutRoute })),
    children: [
      {
        path: "character/:id",
        lazy: () => import("./routes/site").then((m) => ({ Component: m.CharacterRoute })),
      },
      {
        path: "characters",
        lazy: () => import("./routes/site").then((m) => ({ Component: m.CharactersRoute })),
      },
      {
        path: "premium",
        lazy: () => import("./routes/site").then((m) => ({ Component: m.PremiumRoute })),
      },
    ],
  },
  // The legal and company pages (footer, checkout), lazy: off the landing bundle.
  ...SITE_PAGE_SLUGS.map((path) => ({
    path,
    lazy: () => import("./routes/site-pages").then((m) => ({ Component: m.SitePageRoute })),
  })),
  {
    path: "checkout/sandbox/:sessionId",
    lazy: () => import("./routes/billing").then((m) => ({ Component: m.SandboxCheckoutRoute })),
  },
  { path: "admin/*", lazy: () => import("./routes/admin") },
  // The chat bubble's frame on the creator's site and its sign-in popup (decision 0085), lazy.
  {
    path: "embed",
    lazy: () => import("./routes/embed").then((m) => ({ Component: m.EmbedRoute })),
  },
  {
    path: "embed/sign-in",
    lazy: () => import("./routes/embed").then((m) => ({ Component: m.EmbedSignInRoute })),
  },
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
