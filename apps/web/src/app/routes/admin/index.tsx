import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { Navigate, Route, Routes, useNavigate, useParams } from "react-router";
import { AdminAiTrainingPage } from "@/features/admin-ai-training";
import { AdminUserAnalyticsPage } from "@/features/admin-analytics";
import { AdminAuditLogPage } from "@/features/admin-audit-log";
import {
  AdminGuard,
  AdminLoginPage,
  ChangePasswordDialog,
  logoutAdmin,
  readAdminData,
} from "@/features/admin-auth";
import {
  AdminCreditPackagesPage,
  AdminCreditTransactionsPage,
  AdminPlansPage,
  AdminPromotionCodesPage,
  AdminSubscriptionHistoryPage,
  AdminSubscriptionTransactionsPage,
} from "@/features/admin-billing";
import { AdminChatLogsPage } from "@/features/admin-chat-logs";
import { AdminDashboardPage } from "@/features/admin-dashboard";
import { AdminJobsPage } from "@/features/admin-jobs";
import { AdminLayout, AdminNotFound } from "@/features/admin-layout";
import { AdminApiKeysPage, AdminSettingsPage } from "@/features/admin-settings";
import { AdminUserDetailsPage, AdminUsersPage } from "@/features/admin-users";

/**
 * The admin area (admin-side spec, section 2), loaded lazily from the app router as its own
 * bundle: a visitor never downloads it.
 *
 * /admin/login and /admin/Login are one route (React Router matches without case). Everything
 * else sits behind the guard, inside the layout; /admin goes to /admin/dashboard. Screens of
 * later issues show the 404 screen inside the layout until they are built.
 */
export function AdminRoutes() {
  return (
    <Routes>
      <Route path="login" element={<AdminLoginPage />} />
      <Route
        element={
          <AdminGuard>
            <GuardedLayout />
          </AdminGuard>
        }
      >
        <Route index element={<Navigate to="/admin/dashboard" replace />} />
        <Route path="dashboard" element={<AdminDashboardPage />} />
        <Route path="UserAnalytics" element={<AdminUserAnalyticsPage />} />
        <Route path="users" element={<AdminUsersPage />} />
        <Route path="users/:userId" element={<UserDetailsRoute />} />
        <Route path="chat-logs" element={<AdminChatLogsPage />} />
        <Route path="api-keys" element={<AdminApiKeysPage />} />
        <Route path="Settings" element={<AdminSettingsPage />} />
        <Route path="AITraining" element={<AdminAiTrainingPage />} />
        <Route path="subscriptions" element={<AdminPlansPage />} />
        <Route path="ManageCredits" element={<AdminCreditPackagesPage />} />
        <Route path="credit-transactions" element={<AdminCreditTransactionsPage />} />
        <Route path="subscription-transactions" element={<AdminSubscriptionTransactionsPage />} />
        <Route path="subscription-history" element={<AdminSubscriptionHistoryPage />} />
        <Route path="promotion-codes" element={<AdminPromotionCodesPage />} />
        <Route path="audit-log" element={<AdminAuditLogPage />} />
        <Route path="jobs" element={<AdminJobsPage />} />
        <Route path="*" element={<AdminNotFound />} />
      </Route>
    </Routes>
  );
}

/** What the router's `lazy` reads from this module. */
export { AdminRoutes as Component };

function GuardedLayout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const onLogout = useCallback(() => {
    logoutAdmin();
    queryClient.removeQueries({ queryKey: ["admin"] });
    navigate("/admin/login", { replace: true });
  }, [navigate, queryClient]);
  return (
    <AdminLayout
      admin={readAdminData()}
      onLogout={onLogout}
      renderChangePassword={(props) => <ChangePasswordDialog {...props} />}
    />
  );
}

function UserDetailsRoute() {
  const { userId = "" } = useParams();
  // A new key per user, so the tabs and dialogs start afresh.
  return <AdminUserDetailsPage key={userId} userId={userId} />;
}
