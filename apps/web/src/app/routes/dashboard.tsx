import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { Navigate, Outlet, useLocation, useNavigate, useSearchParams } from "react-router";
import { PageSpinner } from "@/components/ui/spinner";
import { DashboardLayout } from "@/features/dashboard/components/dashboard-layout";
import { OverviewPage } from "@/features/dashboard/components/overview-page";
import { legacyTabPath } from "@/features/dashboard/nav";
import { ProfilePage } from "@/features/profile/components/profile-page";
import { usePushPresence } from "@/features/profile/hooks/use-push-presence";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useAuth } from "@/lib/auth/auth-provider";

/**
 * `/dashboard/*`: visitors go to `/` (also when a 401 ends the session while they are here).
 * While a stored token is being checked with no user known yet, a spinner shows.
 */
export function DashboardLayoutRoute() {
  const { status } = useAuth();
  if (status === "anonymous") return <Navigate to="/" replace />;
  if (status === "loading") return <PageSpinner />;
  return <SignedInDashboard />;
}

/** The fan's dashboard; it tells the server whether a tab is visible (reply notifications). */
function SignedInDashboard() {
  usePushPresence();
  return (
    <DashboardLayout>
      <Outlet />
    </DashboardLayout>
  );
}

/**
 * `/dashboard`: the overview. Carrying an `initialTab` (a character page's Text Chat or Voice
 * Chat, in the query or the navigation state) it goes on to that tab's screen, the
 * `characterId` with it.
 */
export function DashboardHomeRoute() {
  const [params] = useSearchParams();
  const location = useLocation();
  const carried = (location.state as { initialTab?: unknown } | null)?.initialTab;
  const initialTab = params.get("initialTab") ?? (typeof carried === "string" ? carried : null);
  const characterId = params.get("characterId");
  useDocumentTitle("Dashboard · Twinline");
  if (initialTab && legacyTabPath(initialTab) !== "/dashboard") {
    return (
      <Navigate
        to={legacyTabPath(initialTab)}
        replace
        state={{ initialTab, ...(characterId ? { characterId } : {}) }}
      />
    );
  }
  return <OverviewWithSubscription />;
}

// The subscription dialog's code comes with its first opening.
const SubscriptionDialog = lazy(() =>
  import("@/features/billing").then((m) => ({ default: m.SubscriptionDialog })),
);

/** The overview, whose Subscribe now buttons open the billing feature's subscription dialog. */
function OverviewWithSubscription() {
  const [dialog, setDialog] = useState({ open: false, opened: false });
  const onSubscribe = useCallback(() => setDialog({ open: true, opened: true }), []);
  return (
    <>
      <OverviewPage onSubscribe={onSubscribe} />
      {dialog.opened ? (
        <Suspense fallback={null}>
          <SubscriptionDialog
            open={dialog.open}
            onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** `/dashboard/profile`. */
export function ProfileRoute() {
  return <ProfilePage />;
}

/**
 * `/dashboard-old`: "Redirecting to new dashboard..." then the sub-route for `?tab=` or the
 * carried `initialTab`; visitors go to `/`.
 */
export function DashboardOldRoute() {
  const { status } = useAuth();
  const [params] = useSearchParams();
  const location = useLocation();
  const carried = (location.state as { initialTab?: unknown } | null)?.initialTab;
  const tab = params.get("tab") ?? (typeof carried === "string" ? carried : null);

  const navigate = useNavigate();
  const target =
    status === "anonymous" ? "/" : status === "authenticated" ? legacyTabPath(tab) : null;

  useDocumentTitle("Redirecting · Twinline");
  useEffect(() => {
    if (target) navigate(target, { replace: true, state: location.state });
  }, [navigate, target, location.state]);

  return (
    <div className="flex min-h-dvh items-center justify-center">
      <p role="status" className="text-stone-600 dark:text-stone-300">
        Redirecting to new dashboard...
      </p>
    </div>
  );
}
