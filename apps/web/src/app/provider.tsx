import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { ErrorBoundary } from "@/components/errors/error-boundary";
import { AuthProvider, useAuth } from "@/lib/auth/auth-provider";
import { createQueryClient } from "@/lib/query-client";
import { ThemeProvider, useTheme } from "@/lib/theme";
import { SettingsEffects } from "./settings-effects";

// react-hot-toast is fetched after the first paint (decision 0033); toasts raised before it
// mounts wait in its store and show when it does.
const Toaster = lazy(() => import("react-hot-toast").then((m) => ({ default: m.Toaster })));

const INTERACTIONS = ["pointerdown", "keydown", "touchstart", "focusin"] as const;

/**
 * Whether the toasts should be mounted yet: at once, unless `defer` (the bare landing page, which
 * raises no toast before an interaction): then at the visitor's first interaction. Toasts raised
 * earlier wait in react-hot-toast's store and show when it mounts; once mounted it stays.
 */
function useToasterWanted(defer: boolean): boolean {
  const [wanted, setWanted] = useState(!defer);
  useEffect(() => {
    if (wanted) return;
    const want = () => setWanted(true);
    if (!defer) {
      want();
      return;
    }
    for (const type of INTERACTIONS) window.addEventListener(type, want, { once: true });
    return () => {
      for (const type of INTERACTIONS) window.removeEventListener(type, want);
    };
  }, [defer, wanted]);
  return wanted;
}

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

// Shown only when the start-up refresh fails, so it stays out of the landing page's bundle.
const AuthErrorScreen = lazy(() =>
  import("@/components/errors/auth-error-screen").then((m) => ({ default: m.AuthErrorScreen })),
);

/** The authentication error screen when the start-up user refresh failed (not a 401). */
function AuthGate({ children }: { children: ReactNode }) {
  const { startFailed } = useAuth();
  if (!startFailed) return children;
  return (
    <Suspense fallback={null}>
      <AuthErrorScreen />
    </Suspense>
  );
}

function DeferredToaster({ defer }: { defer: boolean }) {
  if (!useToasterWanted(defer)) return null;
  return (
    <Suspense fallback={null}>
      <ThemedToaster />
    </Suspense>
  );
}

interface AppProviderProps {
  children: ReactNode;
  /** Tests pass their own client. */
  queryClient?: QueryClient;
  /** The bare landing page: toasts mount at the first interaction (decision 0033). */
  deferToasts?: boolean;
}

/** Everything the app needs around the router: error boundary, theme, queries, session, toasts, settings. */
export function AppProvider({ children, queryClient, deferToasts = false }: AppProviderProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <ErrorBoundary>
      <ThemeProvider>
        <QueryClientProvider client={client}>
          <AuthProvider>
            <SettingsEffects />
            <AuthGate>{children}</AuthGate>
            <DeferredToaster defer={deferToasts} />
          </AuthProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </ErrorBoundary>
  );
}
