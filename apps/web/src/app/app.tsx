import { type ComponentType, useCallback, useEffect, useState } from "react";
import { PageSpinner } from "@/components/ui/spinner";
import { type AppNavigate, NavigationProvider } from "@/lib/navigation";
import { AppProvider } from "./provider";
import { LandingRoute } from "./routes/landing";

/**
 * The landing page `/` renders at once, without the router: react-router and every other screen
 * load on the first navigation away from it (decision 0033, the landing page's budget). Any other
 * address loads the router first.
 */
const loadRouter = () => import("./router");

function isLandingPath(): boolean {
  return window.location.pathname === "/";
}

export function App() {
  const [landing] = useState(isLandingPath);
  const [Routed, setRouted] = useState<ComponentType | null>(null);

  useEffect(() => {
    if (landing) return;
    let live = true;
    void loadRouter().then((m) => {
      if (live) setRouted(() => m.RoutedApp);
    });
    return () => {
      live = false;
    };
  }, [landing]);

  // From the landing page: load the router, move the address, then let the router take over.
  const navigate = useCallback<AppNavigate>((to, options) => {
    loadRouter().then(
      (m) => {
        if (options?.replace) window.history.replaceState(null, "", to);
        else window.history.pushState(null, "", to);
        setRouted(() => m.RoutedApp);
      },
      () => window.location.assign(to),
    );
  }, []);

  return (
    <AppProvider deferToasts={landing && !Routed}>
      {Routed ? (
        <Routed />
      ) : landing ? (
        <NavigationProvider value={navigate}>
          <LandingRoute />
        </NavigationProvider>
      ) : (
        <PageSpinner />
      )}
    </AppProvider>
  );
}
