import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  type AdminUserDetail,
  type AdminUserListItem,
  type AdminUsersQuery,
  adminUserDetailResponseSchema,
  adminUsersResponseSchema,
  type Pagination,
  type UserGrowth,
  userGrowthSchema,
  userStatusResponseSchema,
} from "@twinline/contracts";
import { z } from "zod";
import { api } from "@/lib/api-client";

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

/** GET /api/admin/users with the spec's query (limit 10, status=all). */
export async function fetchAdminUsers(
  params: UsersListParams,
  signal?: AbortSignal,
): Promise<UsersPage> {
  const body = await api.get("/api/admin/users", {
    schema: adminUsersResponseSchema,
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

/** GET /api/admin/users/{userId}. */
export async function fetchAdminUser(
  userId: string,
  signal?: AbortSignal,
): Promise<AdminUserDetail> {
  const body = await api.get(`/api/admin/users/${encodeURIComponent(userId)}`, {
    schema: adminUserDetailResponseSchema,
    signal,
  });
  return body.data;
}

export const adminUserQuery = (userId: string) =>
  queryOptions({
    queryKey: adminUsersKeys.detail(userId),
    queryFn: ({ signal }) => fetchAdminUser(userId, signal),
  });

/** GET /api/admin/dashboard/metrics, read for the four user-growth figures. */
export async function fetchUserGrowth(signal?: AbortSignal): Promise<UserGrowth> {
  const body = await api.get("/api/admin/dashboard/metrics", {
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

/** PUT /api/admin/users/{id}/status; resolves to the server's message. */
export async function setUserStatus(userId: string, action: UserStatusAction): Promise<string> {
  const body = await api.put(
    `/api/admin/users/${encodeURIComponent(userId)}/status`,
    { action },
    { schema: userStatusResponseSchema },
  );
  return body.message;
}

/**
 * PUT /api/admin/users/{id}/date-of-birth: the admin's correction (the fan cannot change it);
 * the audit log keeps the old and the new date. Resolves to the server's message.
 */
export async function correctDateOfBirth(userId: string, dateOfBirth: string) {
  return api.put(
    `/api/admin/users/${encodeURIComponent(userId)}/date-of-birth`,
    { dateOfBirth },
    { schema: userStatusResponseSchema },
  );
}
