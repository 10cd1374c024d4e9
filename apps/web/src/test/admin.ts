import {
  type Admin,
  type AdminUserDetail,
  type AdminUserListItem,
  defaultPublicSettings,
  routes,
} from "@twinline/contracts";
import { type MockedApi, mockApi, on, type RouteMock } from "./api-mock";

/** Test fixtures for the admin screens and their network (msw, keyed by the route table). */

export type { ApiCall } from "./api-mock";

export const testAdmin: Admin = {
  _id: "a1",
  id: "a1",
  name: "Site Admin",
  email: "admin@example.com",
  role: "admin",
};

export function listUser(patch: Partial<AdminUserListItem> = {}): AdminUserListItem {
  return {
    _id: "u1",
    name: "Jade Fan",
    email: "jade@example.com",
    profileImage: null,
    createdAt: "2025-01-05T10:00:00.000Z",
    lastLogin: "2025-02-01T09:30:00.000Z",
    lastActive: "2025-02-01T09:30:00.000Z",
    credits: 120,
    isActive: true,
    role: "user",
    subscription: { status: "inactive", planId: null },
    ...patch,
  };
}

export function detailUser(patch: Partial<AdminUserDetail> = {}): AdminUserDetail {
  return {
    _id: "u1",
    name: "Jade Fan",
    email: "jade@example.com",
    profileImage: null,
    isActive: true,
    role: "user",
    createdAt: "2025-01-05T10:00:00.000Z",
    lastLogin: "2025-02-01T09:30:00.000Z",
    lastActive: "2025-02-01T09:30:00.000Z",
    dailyMessageCount: 2,
    credits: 120,
    totalSpent: 19.98,
    googleId: null,
    dateOfBirth: "1990-05-17",
    subscription: null,
    ...patch,
  };
}

export function usersPage(users: AdminUserListItem[], page = 1, total = users.length) {
  return {
    success: true,
    data: users,
    pagination: { total, page, limit: 10, pages: Math.max(1, Math.ceil(total / 10)) },
  };
}

export const growth = {
  success: true,
  data: {
    totalUsers: { value: 42 },
    todayUsers: { value: 3 },
    yesterdayUsers: { value: 5 },
    thisMonthUsers: { value: 17 },
    lastMonthUsers: { value: 25 },
    totalRevenue: { value: 12345.5, byCurrency: [{ currency: "usd", value: 12345.5 }] },
    totalPaidUsers: { value: 7 },
    conversionRate: { value: 33.3 },
    todayRevenue: {
      value: 19.99,
      byCurrency: [
        { currency: "usd", value: 19.99 },
        { currency: "eur", value: 5 },
        { currency: "inr", value: 1234.5 },
      ],
    },
    yesterdayRevenue: { value: 0, byCurrency: [{ currency: "usd", value: 0 }] },
    thisMonthRevenue: { value: 1200, byCurrency: [{ currency: "usd", value: 1200 }] },
    lastMonthRevenue: { value: 3400.25, byCurrency: [{ currency: "usd", value: 3400.25 }] },
  },
};

export function seriesOf(days: number) {
  return {
    success: true as const,
    data: {
      days,
      points: Array.from({ length: days }, (_, i) => ({
        date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
        signups: i % 3,
        revenue: i * 1.5,
        callMinutes: i % 5,
      })),
    },
  };
}

/**
 * Answers the admin screens' calls through msw (src/test/api-mock.ts): `mocks` first, as
 * `on(route, ...)` of the table; then the CSRF token, the settings, a valid verify-token and the
 * growth metrics. Unknown calls get 404.
 */
export function mockAdminApi(mocks: RouteMock[] = []): MockedApi {
  return mockApi(
    [
      ...mocks,
      on(routes.adminSession.verifyToken, { success: true, valid: true, admin: testAdmin }),
      // The users screen reads only the growth figures of the dashboard's answer.
      on(routes.dashboards.metrics, () => growth as never),
      on(routes.dashboards.series, ({ url }) =>
        seriesOf(Number(url.searchParams.get("days") ?? 30)),
      ),
    ],
    { settings: defaultPublicSettings },
  );
}

/** Stores an admin session as a successful login would. */
export function signInAdmin(token = "admin-token") {
  localStorage.setItem("adminToken", token);
  localStorage.setItem("adminData", JSON.stringify(testAdmin));
  sessionStorage.setItem("adminToken", token);
}
