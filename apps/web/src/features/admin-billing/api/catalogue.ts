import { queryOptions } from "@tanstack/react-query";
import { type CreditPackageCreate, routes, type SubscriptionPlanCreate } from "@twinline/contracts";
import { callRoute } from "@/lib/api/route-client";

export const catalogueKeys = {
  plans: ["admin", "billing", "plans"] as const,
  packages: ["admin", "billing", "packages"] as const,
};

/** Every plan, active or not (routes.adminBilling.plans). */
export const adminPlansQuery = () =>
  queryOptions({
    queryKey: catalogueKeys.plans,
    queryFn: async ({ signal }) => (await callRoute(routes.adminBilling.plans, { signal })).data,
  });

export const createPlan = (form: SubscriptionPlanCreate) =>
  callRoute(routes.adminBilling.createPlan, { body: form });
/** Interval and interval count are fixed after creation: the update never sends them. */
export const updatePlan = (id: string, form: SubscriptionPlanCreate) => {
  const { interval: _interval, intervalCount: _count, ...rest } = form;
  return callRoute(routes.adminBilling.updatePlan, { params: { id }, body: rest });
};
export const togglePlan = (id: string) =>
  callRoute(routes.adminBilling.togglePlan, { params: { id } });
export const deletePlan = (id: string) =>
  callRoute(routes.adminBilling.deletePlan, { params: { id } });
export const syncPlans = () => callRoute(routes.adminBilling.syncPlans);

/**
 * Every package, active or not: the open list called with the admin's token, which sees the
 * inactive ones too (decision 0016; the addresses have no /admin, decision 0008).
 */
export const adminPackagesQuery = () =>
  queryOptions({
    queryKey: catalogueKeys.packages,
    queryFn: async ({ signal }) =>
      (await callRoute(routes.billing.packages, { signal, token: "admin" })).packages,
  });

export const createPackage = (form: CreditPackageCreate) =>
  callRoute(routes.adminBilling.createPackage, { body: form });
export const updatePackage = (id: string, form: CreditPackageCreate) =>
  callRoute(routes.adminBilling.updatePackage, { params: { id }, body: form });
export const togglePackage = (id: string) =>
  callRoute(routes.adminBilling.togglePackage, { params: { id } });
export const deletePackage = (id: string) =>
  callRoute(routes.adminBilling.deletePackage, { params: { id } });
export const syncPackages = () => callRoute(routes.adminBilling.syncPackages);

/** Plan ids are shown truncated to 10 characters (admin-side spec, section 9). */
export function truncateId(id: string | null | undefined): string | null {
  if (!id) return null;
  return id.length > 10 ? `${id.slice(0, 10)}…` : id;
}
