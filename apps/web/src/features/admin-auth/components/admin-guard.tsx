import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { Navigate, useLocation } from "react-router";
import { ErrorState } from "@/components/ui/load-states";
import { Spinner } from "@/components/ui/spinner";
import { onUnauthorized } from "@/lib/api-client";
import { getAdminToken, STORAGE_KEYS } from "@/lib/storage";
import { verifyAdminToken } from "../api/admin-auth";
import { ADMIN_LOGIN_ROUTE, type AdminLoginState, originOf } from "../api/origin";
import { clearAdminSession, storeAdminSession } from "../api/session";

export const adminVerifyQueryKey = (token: string) => ["admin", "verify-token", token] as const;

/** The stored admin token, kept in step with 401 answers and other tabs. */
function useAdminToken(): string | null {
  const [token, setToken] = useState(getAdminToken);
  useEffect(() => {
    const reread = () => setToken(getAdminToken());
    const stopUnauthorized = onUnauthorized(reread);
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === STORAGE_KEYS.adminToken) reread();
    };
    window.addEventListener("storage", onStorage);
    return () => {
      stopUnauthorized();
      window.removeEventListener("storage", onStorage);
    };
  }, []);
  return token;
}

/**
 * Admin guard (admin-side spec, section 2): no stored admin token, or one the server reports
 * invalid, removes the tokens and redirects to /admin/Login remembering the origin; a spinner
 * shows while the check runs; a valid token is stored again.
 */
export function AdminGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const token = useAdminToken();
  const verify = useQuery({
    queryKey: adminVerifyQueryKey(token ?? ""),
    queryFn: async ({ signal }) => {
      const result = await verifyAdminToken(signal);
      // Before anything renders on it: an invalid token goes, a valid one is stored again.
      if (!result.valid) clearAdminSession();
      else if (token) storeAdminSession(token, result.admin);
      return result;
    },
    enabled: token !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const verdict = verify.data;

  if (!token || verdict?.valid === false) {
    const state: AdminLoginState = { from: originOf(location) };
    return <Navigate to={ADMIN_LOGIN_ROUTE} replace state={state} />;
  }
  if (verify.isError) {
    return (
      <ErrorState
        layout="screen"
        message="We could not check your admin session. Please check your connection and try again."
        onRetry={() => verify.refetch()}
      />
    );
  }
  if (!verdict) {
    return (
      <div className="flex min-h-dvh items-center justify-center" data-testid="admin-guard-spinner">
        <Spinner label="Checking your admin session" delayMs={0} />
      </div>
    );
  }
  return <>{children}</>;
}
