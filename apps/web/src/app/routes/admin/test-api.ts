import {
  type Admin,
  type AdminUserDetail,
  type AdminUserListItem,
  defaultPublicSettings,
} from "@twinline/contracts";
import { vi } from "vitest";
import { resetCsrfToken } from "@/lib/api-client";
import { jsonResponse } from "@/test/render";

/** Test helpers for the admin screens: a fetch stub routed by "METHOD /path". */

export interface ApiCall {
  method: string;
  url: URL;
  body: unknown;
  headers: Headers;
}

type Handler = (call: ApiCall) => Response | Promise<Response>;

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
    success: true,
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
 * Stubs fetch. `routes` maps "METHOD /path" to a handler; the CSRF token, settings, a valid
 * verify-token and the growth metrics are answered unless overridden. Unknown calls get 404.
 */
export function mockAdminApi(routes: Record<string, Handler> = {}) {
  resetCsrfToken();
  const calls: ApiCall[] = [];
  const defaults: Record<string, Handler> = {
    "GET /api/csrf-token": () => jsonResponse({ csrfToken: "csrf-1" }),
    "GET /api/settings": () => jsonResponse(defaultPublicSettings),
    "GET /api/admin/verify-token": () =>
      jsonResponse({ success: true, valid: true, admin: testAdmin }),
    "GET /api/admin/dashboard/metrics": () => jsonResponse(growth),
    "GET /api/admin/dashboard/series": ({ url }) =>
      jsonResponse(seriesOf(Number(url.searchParams.get("days") ?? 30))),
  };
  const table = { ...defaults, ...routes };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = (init?.method ?? "GET").toUpperCase();
    const raw = init?.body;
    const body = typeof raw === "string" ? (JSON.parse(raw) as unknown) : undefined;
    const call = { method, url, body, headers: new Headers(init?.headers) };
    calls.push(call);
    const exact = table[`${method} ${url.pathname}`];
    const pattern = Object.entries(table).find(([key]) => {
      const [m, path] = key.split(" ");
      if (m !== method || !path?.includes(":")) return false;
      const re = new RegExp(`^${path.replace(/:[^/]+/g, "[^/]+")}$`);
      return re.test(url.pathname);
    })?.[1];
    const handler = exact ?? pattern;
    if (handler) return handler(call);
    return jsonResponse({ success: false, message: "Not Found" }, 404);
  });
  vi.stubGlobal("fetch", fetchMock);
  return {
    fetchMock,
    calls,
    /** The calls to one "METHOD /path". */
    callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.url.pathname}` === key),
  };
}

/** Stores an admin session as a successful login would. */
export function signInAdmin(token = "admin-token") {
  localStorage.setItem("adminToken", token);
  localStorage.setItem("adminData", JSON.stringify(testAdmin));
  sessionStorage.setItem("adminToken", token);
}
