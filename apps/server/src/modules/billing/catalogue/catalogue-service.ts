import { randomUUID } from "node:crypto";
import {
  BILLING_MESSAGES,
  type CreditPackageCreate,
  type CreditPackageUpdate,
  type SubscriptionPlanCreate,
  type SubscriptionPlanUpdate,
  type SyncStripeResult,
} from "@twinline/contracts";
import type { CreditPackageRow, SubscriptionPlanRow } from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { providerCall } from "../provider-call.ts";
import { newPackageRow, newPlanRow, packageChanges, planChanges } from "./catalogue-inputs.ts";
import {
  type CatalogueKind,
  type CatalogueRow,
  mustFind,
  orNotFound,
  packageKind,
  planKind,
} from "./catalogue-kinds.ts";
import { toCreditPackage, toSubscriptionPlan } from "./mappers.ts";
import {
  type CatalogueDeps,
  catalogueNow,
  setProductActive,
  syncAll,
  syncCreated,
  syncEdited,
  syncRow,
} from "./stripe-sync.ts";

export interface CatalogueServiceOptions extends CatalogueDeps {
  /** THE billing clock: when a package or plan was deleted. */
  clock: Clock;
}

async function toggleActive<Row extends CatalogueRow>(
  deps: CatalogueDeps,
  of: CatalogueKind<Row>,
  id: string,
): Promise<Row> {
  const current = await mustFind(of, id);
  const row = orNotFound(of, await of.update(id, { isActive: !current.isActive }));
  await setProductActive(deps, row.stripeProductId, row.isActive);
  return row;
}

async function softDelete<Row extends CatalogueRow>(
  deps: CatalogueServiceOptions,
  of: CatalogueKind<Row>,
  id: string,
) {
  const current = await mustFind(of, id);
  await setProductActive(deps, current.stripeProductId, false);
  await of.update(id, { deletedAt: new Date(deps.clock.now()), isActive: false });
}

/** What a checkout sells must be active, and has a Stripe price made first if it has none. */
async function forCheckout<Row extends CatalogueRow>(
  deps: CatalogueDeps,
  of: CatalogueKind<Row>,
  id: string,
): Promise<Row> {
  const row = await mustFind(of, id);
  if (!row.isActive) throw new HttpError(400, of.inactive);
  const catalogue = await catalogueNow(deps);
  if (catalogue && !row.stripePriceId) {
    return (await providerCall(() => syncRow(deps.repository, of, catalogue, row))).row;
  }
  return row;
}

/**
 * Credit packages and subscription plans, kept in step with Stripe when a key is set
 * (admin-side section 4): a product per row, a new Price whenever the charged amount or the
 * currency changes (the old one is deactivated for new purchases and kept: subscribers stay on
 * it), a delete deactivates the Product. Without a key (sandbox) rows stay "Not synced".
 */
export function createCatalogueService(deps: CatalogueServiceOptions) {
  const { repository } = deps;
  const packages = packageKind(repository);
  const plans = planKind(repository);

  const plansWithCounts = async (rows: SubscriptionPlanRow[]) => {
    const counts = await repository.subscriberCounts(rows.map((row) => row.id));
    return rows.map((row) => toSubscriptionPlan(row, counts.get(row.id) ?? 0));
  };
  const planView = async (row: SubscriptionPlanRow) => {
    const counts = await repository.subscriberCounts([row.id]);
    return toSubscriptionPlan(row, counts.get(row.id) ?? 0);
  };

  return {
    // ----- packages -----
    async listPackages(all: boolean) {
      return (await repository.listPackages(all)).map(toCreditPackage);
    },

    async createPackage(input: CreditPackageCreate) {
      const row = await repository.insertPackage(newPackageRow(randomUUID(), input));
      return toCreditPackage(await syncCreated(deps, packages, row));
    },

    async updatePackage(id: string, input: CreditPackageUpdate) {
      await mustFind(packages, id);
      const row = await repository.updatePackage(id, packageChanges(input));
      return toCreditPackage(await syncEdited(deps, packages, orNotFound(packages, row)));
    },

    async togglePackage(id: string) {
      const row = await toggleActive(deps, packages, id);
      return {
        data: toCreditPackage(row),
        message: row.isActive
          ? BILLING_MESSAGES.packageActivated
          : BILLING_MESSAGES.packageDeactivated,
      };
    },

    /** Earlier purchases keep their package (soft delete); the Stripe Product is deactivated. */
    async deletePackage(id: string) {
      await softDelete(deps, packages, id);
    },

    async syncPackages(): Promise<SyncStripeResult> {
      return syncAll(deps, BILLING_MESSAGES.packagesSynced, packages, () =>
        repository.listPackages(true),
      );
    },

    /** The package a checkout sells, with a Stripe price made first if it has none. */
    async packageForCheckout(id: string): Promise<CreditPackageRow> {
      return forCheckout(deps, packages, id);
    },

    // ----- plans -----
    /** A plan even when deleted (subscriptions and sessions keep pointing at it). */
    findPlanAnyState: (id: string) => repository.findPlan(id, true),
    findPackageAnyState: (id: string) => repository.findPackage(id),

    async listPlans(activeOnly: boolean) {
      return plansWithCounts(await repository.listPlans(activeOnly));
    },

    async createPlan(input: SubscriptionPlanCreate) {
      const row = await repository.insertPlan(newPlanRow(randomUUID(), input));
      return await planView(await syncCreated(deps, plans, row));
    },

    async updatePlan(id: string, input: SubscriptionPlanUpdate) {
      const current = await mustFind(plans, id);
      const row = await repository.updatePlan(id, planChanges(current, input));
      return await planView(await syncEdited(deps, plans, orNotFound(plans, row)));
    },

    async togglePlan(id: string) {
      const row = await toggleActive(deps, plans, id);
      return {
        data: await planView(row),
        message: row.isActive ? BILLING_MESSAGES.planActivated : BILLING_MESSAGES.planDeactivated,
      };
    },

    /** Existing subscriptions keep working: the plan is soft-deleted, its Product deactivated. */
    async deletePlan(id: string) {
      await softDelete(deps, plans, id);
    },

    async syncPlans(): Promise<SyncStripeResult> {
      return syncAll(deps, BILLING_MESSAGES.plansSynced, plans, () => repository.listPlans(false));
    },

    /** The plan a checkout or a change sells, with a Stripe price made first if it has none. */
    async planForCheckout(id: string): Promise<SubscriptionPlanRow> {
      return forCheckout(deps, plans, id);
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
