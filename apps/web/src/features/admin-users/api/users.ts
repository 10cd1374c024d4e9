import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  type AdminUserDetail,
  type AdminUserListItem,
  type AdminUsersQuery,
  type Pagination,
  routes,
  type UserGrowth,
  userGrowthSchema,
} from "@twinline/contracts";
import { z } from "zod";
import { apiRequest, callRoute, routeUrl, tokenFor } from "@/lib/api-client";

/** Page size of the users table (admin-side spec, section 9). */
export const USERS_PAGE_SIZE = 10;

export type UserSortField = AdminUsersQuery["sortBy"];
export type SortOrder = 1 | -1;

export interface UsersListParams {
  page: number;
  sortBy: UserSortField;
  sortOrder: SortOrder;
  search: string;
}

export interface UsersPage {
  users: AdminUserListItem[];
  pagination: Pagination;
}

export const adminUsersKeys = {
  all: ["admin", "users"] as const,
  list: (params: UsersListParams) => ["admin", "users", "list", params] as const,
  detail: (userId: string) => ["admin", "users", "detail", userId] as const,
  growth: ["admin", "dashboard", "metrics"] as const,
};

/** One page of users with the spec's query (limit 10, status=all). */
export async function fetchAdminUsers(
  params: UsersListParams,
  signal?: AbortSignal,
): Promise<UsersPage> {
  const body = await callRoute(routes.adminUsers.list, {
    signal,
    query: {
      page: params.page,
      limit: USERS_PAGE_SIZE,
      sortBy: params.sortBy,
      sortOrder: params.sortOrder,
      search: params.search || undefined,
      status: "all",
    },
  });
  return { users: body.data, pagination: body.pagination };
}

export const adminUsersQuery = (params: UsersListParams) =>
  queryOptions({
    queryKey: adminUsersKeys.list(params),
    queryFn: ({ signal }) => fetchAdminUsers(params, signal),
    placeholderData: keepPreviousData,
  });

/** One user's details. */
export async function fetchAdminUser(
  userId: string,
  signal?: AbortSignal,
): Promise<AdminUserDetail> {
  const body = await callRoute(routes.adminUsers.detail, { signal, params: { userId } });
  return body.data;
}

export const adminUserQuery = (userId: string) =>
  queryOptions({
    queryKey: adminUsersKeys.detail(userId),
    queryFn: ({ signal }) => fetchAdminUser(userId, signal),
  });

/**
 * The dashboard's figures (routes.dashboards.metrics), read only for the four user-growth ones:
 * its own narrower schema, so the users screen does not fail on a figure it does not show.
 */
export async function fetchUserGrowth(signal?: AbortSignal): Promise<UserGrowth> {
  const route = routes.dashboards.metrics;
  const body = await apiRequest(routeUrl(route), {
    method: route.method,
    token: tokenFor(route.access),
    schema: z.object({ data: userGrowthSchema }),
    signal,
  });
  return body.data;
}

export const userGrowthQuery = () =>
  queryOptions({
    queryKey: adminUsersKeys.growth,
    queryFn: ({ signal }) => fetchUserGrowth(signal),
  });

export type UserStatusAction = "activate" | "deactivate";

/** Activates or deactivates a user; resolves to the server's message. */
export async function setUserStatus(userId: string, action: UserStatusAction): Promise<string> {
  const body = await callRoute(routes.adminUsers.status, {
    params: { userId },
    body: { action },
  });
  return body.message;
}

/**
 * Corrects a user's date of birth, the admin's correction (the fan cannot change it);
 * the audit log keeps the old and the new date. Resolves to the server's message.
 */
export async function correctDateOfBirth(userId: string, dateOfBirth: string) {
  return callRoute(routes.adminUsers.dateOfBirth, { params: { userId }, body: { dateOfBirth } });
}
