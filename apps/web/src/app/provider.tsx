import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { AuthErrorScreen } from "@/components/errors/auth-error-screen";
import { ErrorBoundary } from "@/components/errors/error-boundary";
import { AuthProvider, useAuth } from "@/lib/auth/auth-provider";
import { createQueryClient } from "@/lib/query-client";
import { ThemeProvider, useTheme } from "@/lib/theme";
import { SettingsEffects } from "./settings-effects";

// react-hot-toast is fetched after the first paint (decision 0033); toasts raised before it
// mounts wait in its store and show when it does.
const Toaster = lazy(() => import("react-hot-toast").then((m) => ({ default: m.Toaster })));

/** Toasts in the current theme; timings are react-hot-toast's defaults (the spec's). */
function ThemedToaster() {
  const { resolvedTheme } = useTheme();
  const dark = resolvedTheme === "dark";
  return (
    <Toaster
      position="top-center"
      toastOptions={{
        style: dark
          ? { background: "#292524", color: "#fafaf9", border: "1px solid rgb(255 255 255 / 0.1)" }
          : { background: "#ffffff", color: "#1c1917", border: "1px solid #e7e5e4" },
      }}
    />
  );
}

/** The authentication error screen when the start-up user refresh failed (not a 401). */
function AuthGate({ children }: { children: ReactNode }) {
  const { startFailed } = useAuth();
  return startFailed ? <AuthErrorScreen /> : children;
}

interface AppProviderProps {
  children: ReactNode;
  /** Tests pass their own client. */
  queryClient?: QueryClient;
}

/** Everything the app needs around the router: error boundary, theme, queries, session, toasts, settings. */
export function AppProvider({ children, queryClient }: AppProviderProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <ErrorBoundary>
      <ThemeProvider>
        <QueryClientProvider client={client}>
          <AuthProvider>
            <SettingsEffects />
            <AuthGate>{children}</AuthGate>
            <Suspense fallback={null}>
              <ThemedToaster />
            </Suspense>
          </AuthProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </ErrorBoundary>
  );
}
