import { queryOptions } from "@tanstack/react-query";
import {
  billingMessageResponseSchema,
  type CreditPackageCreate,
  creditPackageResponseSchema,
  creditPackagesResponseSchema,
  type SubscriptionPlanCreate,
  subscriptionPlanResponseSchema,
  subscriptionPlansResponseSchema,
  syncStripeResponseSchema,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";

// Plan and package management lives on URLs without /admin: the admin token is named (decision 0008).
const ADMIN = { token: "admin" } as const;

export const catalogueKeys = {
  plans: ["admin", "billing", "plans"] as const,
  packages: ["admin", "billing", "packages"] as const,
};

/** GET /api/subscriptions: every plan, active or not. */
export const adminPlansQuery = () =>
  queryOptions({
    queryKey: catalogueKeys.plans,
    queryFn: async ({ signal }) =>
      (
        await api.get("/api/subscriptions", {
          ...ADMIN,
          signal,
          schema: subscriptionPlansResponseSchema,
        })
      ).data,
  });

export const createPlan = (form: SubscriptionPlanCreate) =>
  api.post("/api/subscriptions", form, { ...ADMIN, schema: subscriptionPlanResponseSchema });
/** Interval and interval count are fixed after creation: the update never sends them. */
export const updatePlan = (id: string, form: SubscriptionPlanCreate) => {
  const { interval: _interval, intervalCount: _count, ...rest } = form;
  return api.put(`/api/subscriptions/${encodeURIComponent(id)}`, rest, {
    ...ADMIN,
    schema: subscriptionPlanResponseSchema,
  });
};
export const togglePlan = (id: string) =>
  api.patch(`/api/subscriptions/${encodeURIComponent(id)}/toggle-status`, undefined, {
    ...ADMIN,
    schema: subscriptionPlanResponseSchema,
  });
export const deletePlan = (id: string) =>
  api.delete(`/api/subscriptions/${encodeURIComponent(id)}`, {
    ...ADMIN,
    schema: billingMessageResponseSchema,
  });
export const syncPlans = () =>
  api.post("/api/subscriptions/sync-stripe", undefined, {
    ...ADMIN,
    schema: syncStripeResponseSchema,
  });

/** GET /api/credit-packages: every package, active or not (admin token). */
export const adminPackagesQuery = () =>
  queryOptions({
    queryKey: catalogueKeys.packages,
    queryFn: async ({ signal }) =>
      (
        await api.get("/api/credit-packages", {
          ...ADMIN,
          signal,
          schema: creditPackagesResponseSchema,
        })
      ).packages,
  });

export const createPackage = (form: CreditPackageCreate) =>
  api.post("/api/credit-packages", form, { ...ADMIN, schema: creditPackageResponseSchema });
export const updatePackage = (id: string, form: CreditPackageCreate) =>
  api.put(`/api/credit-packages/${encodeURIComponent(id)}`, form, {
    ...ADMIN,
    schema: creditPackageResponseSchema,
  });
export const togglePackage = (id: string) =>
  api.patch(`/api/credit-packages/${encodeURIComponent(id)}/toggle-status`, undefined, {
    ...ADMIN,
    schema: creditPackageResponseSchema,
  });
export const deletePackage = (id: string) =>
  api.delete(`/api/credit-packages/${encodeURIComponent(id)}`, {
    ...ADMIN,
    schema: billingMessageResponseSchema,
  });
export const syncPackages = () =>
  api.post("/api/credit-packages/sync-stripe", undefined, {
    ...ADMIN,
    schema: syncStripeResponseSchema,
  });

/** Plan ids are shown truncated to 10 characters (admin-side spec, section 9). */
export function truncateId(id: string | null | undefined): string | null {
  if (!id) return null;
  return id.length > 10 ? `${id.slice(0, 10)}…` : id;
}
