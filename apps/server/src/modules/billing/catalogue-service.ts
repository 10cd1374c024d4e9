import { randomUUID } from "node:crypto";
import {
  BILLING_MESSAGES,
  type CreditPackageCreate,
  type CreditPackageUpdate,
  type SubscriptionPlanCreate,
  type SubscriptionPlanUpdate,
  type SyncStripeResult,
} from "@twinline/contracts";
import type { CreditPackageRow, SubscriptionPlanRow } from "../../db/schema/index.ts";
import { HttpError } from "../../plugins/errors.ts";
import {
  type PaymentsCatalogue,
  type PaymentsProvider,
  PRODUCT_KIND_KEY,
} from "../../providers/payments/index.ts";
import type { CatalogueRepository } from "./catalogue-repository.ts";
import { toCreditPackage, toSubscriptionPlan } from "./mappers.ts";
import { discountedMinor, providerCall, toBasisPoints, toMinor } from "./money.ts";

export interface CatalogueServiceOptions {
  repository: CatalogueRepository;
  payments: () => Promise<PaymentsProvider>;
}

const productMetadata = (kind: "package" | "plan", id: string) => ({
  [PRODUCT_KIND_KEY]: kind,
  twinline_id: id,
});

/** What a package charges at Stripe: its discounted price. */
const packageCharge = (row: Pick<CreditPackageRow, "priceMinor" | "discountBasisPoints">) =>
  discountedMinor(row.priceMinor, row.discountBasisPoints);

/**
 * Credit packages and subscription plans, kept in step with Stripe when a key is set
 * (admin-side section 4): a product per row, a new Price whenever the charged amount or the
 * currency changes (the old one is deactivated for new purchases and kept: subscribers stay on
 * it), a delete deactivates the Product. Without a key (sandbox) rows stay "Not synced".
 */
export function createCatalogueService({ repository, payments }: CatalogueServiceOptions) {
  const catalogueNow = async (): Promise<PaymentsCatalogue | null> => (await payments()).catalogue;

  /** A Stripe product and price for a package that has none (or lost them). */
  const syncPackage = async (
    catalogue: PaymentsCatalogue,
    row: CreditPackageRow,
  ): Promise<{ row: CreditPackageRow; created: boolean; updated: boolean }> => {
    let created = false;
    let updated = false;
    let productId = row.stripeProductId;
    const product = productId ? await catalogue.retrieveProduct(productId) : null;
    if (!product) {
      productId = (
        await catalogue.createProduct({
          name: row.name,
          description: row.description,
          metadata: productMetadata("package", row.id),
        })
      ).id;
      created = true;
    } else if (product.name !== row.name || product.active !== row.isActive) {
      await catalogue.updateProduct(product.id, { name: row.name, active: row.isActive });
      updated = true;
    }
    if (!productId) throw new Error("unreachable");
    const amount = packageCharge(row);
    const price =
      row.stripePriceId && !created ? await catalogue.retrievePrice(row.stripePriceId) : null;
    let priceId = row.stripePriceId;
    if (!price || price.amountMinor !== amount || price.currency !== row.currency) {
      const made = await catalogue.createPrice({
        productId,
        amountMinor: amount,
        currency: row.currency,
        recurring: null,
        metadata: productMetadata("package", row.id),
      });
      if (price?.active) await catalogue.deactivatePrice(price.id);
      if (price) await repository.deactivatePrice(price.id);
      await repository.recordPrice({
        priceId: made.id,
        provider: "stripe",
        packageId: row.id,
        amountMinor: amount,
        currency: row.currency,
      });
      priceId = made.id;
      if (!created) updated = true;
    }
    if (productId === row.stripeProductId && priceId === row.stripePriceId) {
      return { row, created, updated };
    }
    const saved = await repository.updatePackage(row.id, {
      stripeProductId: productId,
      stripePriceId: priceId,
    });
    return { row: saved ?? row, created, updated };
  };

  const syncPlan = async (
    catalogue: PaymentsCatalogue,
    row: SubscriptionPlanRow,
  ): Promise<{ row: SubscriptionPlanRow; created: boolean; updated: boolean }> => {
    let created = false;
    let updated = false;
    let productId = row.stripeProductId;
    const product = productId ? await catalogue.retrieveProduct(productId) : null;
    if (!product) {
      productId = (
        await catalogue.createProduct({
          name: row.name,
          description: row.description,
          metadata: productMetadata("plan", row.id),
        })
      ).id;
      created = true;
    } else if (product.name !== row.name || product.active !== row.isActive) {
      await catalogue.updateProduct(product.id, { name: row.name, active: row.isActive });
      updated = true;
    }
    if (!productId) throw new Error("unreachable");
    const price =
      row.stripePriceId && !created ? await catalogue.retrievePrice(row.stripePriceId) : null;
    let priceId = row.stripePriceId;
    if (!price || price.amountMinor !== row.priceMinor || price.currency !== row.currency) {
      const made = await catalogue.createPrice({
        productId,
        amountMinor: row.priceMinor,
        currency: row.currency,
        recurring: { interval: row.interval, intervalCount: row.intervalCount },
        metadata: productMetadata("plan", row.id),
      });
      // The old Price stays for the subscriptions on it; no new checkout uses it.
      if (price?.active) await catalogue.deactivatePrice(price.id);
      if (price) await repository.deactivatePrice(price.id);
      await repository.recordPrice({
        priceId: made.id,
        provider: "stripe",
        planId: row.id,
        amountMinor: row.priceMinor,
        currency: row.currency,
      });
      priceId = made.id;
      if (!created) updated = true;
    }
    if (productId === row.stripeProductId && priceId === row.stripePriceId) {
      return { row, created, updated };
    }
    const saved = await repository.updatePlan(row.id, {
      stripeProductId: productId,
      stripePriceId: priceId,
    });
    return { row: saved ?? row, created, updated };
  };

  const mustPackage = async (id: string) => {
    const row = await repository.findPackage(id);
    if (!row) throw new HttpError(404, BILLING_MESSAGES.packageNotFound);
    return row;
  };
  const mustPlan = async (id: string) => {
    const row = await repository.findPlan(id);
    if (!row) throw new HttpError(404, BILLING_MESSAGES.planNotFound);
    return row;
  };

  /** Products at Stripe made by this app whose local row is gone: deactivated. */
  const deactivateOrphans = async (
    catalogue: PaymentsCatalogue,
    kind: "package" | "plan",
    liveIds: Set<string>,
  ): Promise<number> => {
    let deactivated = 0;
    for (const product of await catalogue.listProducts()) {
      if (product.metadata[PRODUCT_KIND_KEY] !== kind || !product.active) continue;
      const localId = product.metadata.twinline_id;
      if (localId && liveIds.has(localId)) continue;
      await catalogue.updateProduct(product.id, { active: false });
      deactivated += 1;
    }
    return deactivated;
  };

  /**
   * "Sync with Stripe" for one kind: every live row gets its Product and Price (made or
   * updated), Products whose row is gone are deactivated; in the sandbox nothing is to sync.
   */
  const syncAll = async <Row extends { id: string }>(
    message: string,
    kind: "package" | "plan",
    listLive: () => Promise<Row[]>,
    syncOne: (
      catalogue: PaymentsCatalogue,
      row: Row,
    ) => Promise<{ created?: boolean; updated?: boolean }>,
  ): Promise<SyncStripeResult> => {
    const catalogue = await catalogueNow();
    if (!catalogue) {
      return { success: true, message, mode: "sandbox", created: 0, updated: 0, deactivated: 0 };
    }
    return providerCall(async () => {
      let created = 0;
      let updated = 0;
      const live = await listLive();
      for (const row of live) {
        const result = await syncOne(catalogue, row);
        if (result.created) created += 1;
        else if (result.updated) updated += 1;
      }
      const deactivated = await deactivateOrphans(catalogue, kind, new Set(live.map((r) => r.id)));
      return {
        success: true as const,
        message,
        mode: "stripe" as const,
        created,
        updated,
        deactivated,
      };
    });
  };

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
      const id = randomUUID();
      let row = await repository.insertPackage({
        id,
        name: input.name,
        description: input.description,
        credits: input.credits,
        priceMinor: toMinor(input.price),
        currency: input.currency,
        discountBasisPoints: toBasisPoints(input.discount),
        isActive: input.isActive,
      });
      const catalogue = await catalogueNow();
      if (catalogue) row = (await providerCall(() => syncPackage(catalogue, row))).row;
      return toCreditPackage(row);
    },

    async updatePackage(id: string, input: CreditPackageUpdate) {
      await mustPackage(id);
      let row = await repository.updatePackage(id, {
        name: input.name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.credits !== undefined ? { credits: input.credits } : {}),
        ...(input.price !== undefined ? { priceMinor: toMinor(input.price) } : {}),
        ...(input.currency !== undefined ? { currency: input.currency } : {}),
        ...(input.discount !== undefined
          ? { discountBasisPoints: toBasisPoints(input.discount) }
          : {}),
        ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
      });
      if (!row) throw new HttpError(404, BILLING_MESSAGES.packageNotFound);
      const catalogue = await catalogueNow();
      if (catalogue) {
        const current = row;
        if (current.stripeProductId) {
          await providerCall(() =>
            catalogue.updateProduct(current.stripeProductId as string, {
              name: current.name,
              description: current.description,
              active: current.isActive,
            }),
          );
        }
        row = (await providerCall(() => syncPackage(catalogue, current))).row;
      }
      return toCreditPackage(row);
    },

    async togglePackage(id: string) {
      const current = await mustPackage(id);
      const row = await repository.updatePackage(id, { isActive: !current.isActive });
      if (!row) throw new HttpError(404, BILLING_MESSAGES.packageNotFound);
      const catalogue = await catalogueNow();
      if (catalogue && row.stripeProductId) {
        await providerCall(() =>
          catalogue.updateProduct(row.stripeProductId as string, { active: row.isActive }),
        );
      }
      return {
        data: toCreditPackage(row),
        message: row.isActive
          ? BILLING_MESSAGES.packageActivated
          : BILLING_MESSAGES.packageDeactivated,
      };
    },

    /** Earlier purchases keep their package (soft delete); the Stripe Product is deactivated. */
    async deletePackage(id: string) {
      const current = await mustPackage(id);
      const catalogue = await catalogueNow();
      if (catalogue && current.stripeProductId) {
        await providerCall(() =>
          catalogue.updateProduct(current.stripeProductId as string, { active: false }),
        );
      }
      await repository.updatePackage(id, { deletedAt: new Date(), isActive: false });
    },

    async syncPackages(): Promise<SyncStripeResult> {
      return syncAll(
        BILLING_MESSAGES.packagesSynced,
        "package",
        () => repository.listPackages(true),
        syncPackage,
      );
    },

    /** The package a checkout sells, with a Stripe price made first if it has none. */
    async packageForCheckout(id: string): Promise<CreditPackageRow> {
      const row = await repository.findPackage(id);
      if (!row) throw new HttpError(404, BILLING_MESSAGES.packageNotFound);
      if (!row.isActive) throw new HttpError(400, BILLING_MESSAGES.packageInactive);
      const catalogue = await catalogueNow();
      if (catalogue && !row.stripePriceId) {
        return (await providerCall(() => syncPackage(catalogue, row))).row;
      }
      return row;
    },

    // ----- plans -----
    /** A plan even when deleted (subscriptions and sessions keep pointing at it). */
    findPlanAnyState: (id: string) => repository.findPlan(id, true),

    async listPlans(activeOnly: boolean) {
      return plansWithCounts(await repository.listPlans(activeOnly));
    },

    async createPlan(input: SubscriptionPlanCreate) {
      let row = await repository.insertPlan({
        id: randomUUID(),
        name: input.name,
        description: input.description,
        priceMinor: toMinor(input.price),
        currency: input.currency,
        interval: input.interval,
        intervalCount: input.intervalCount,
        features: input.features,
        isActive: input.isActive,
        credits: input.credits,
      });
      const catalogue = await catalogueNow();
      if (catalogue) row = (await providerCall(() => syncPlan(catalogue, row))).row;
      return await planView(row);
    },

    async updatePlan(id: string, input: SubscriptionPlanUpdate) {
      const current = await mustPlan(id);
      if (
        (input.interval !== undefined && input.interval !== current.interval) ||
        (input.intervalCount !== undefined && input.intervalCount !== current.intervalCount)
      ) {
        throw new HttpError(400, BILLING_MESSAGES.intervalFixed);
      }
      let row = await repository.updatePlan(id, {
        name: input.name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.price !== undefined ? { priceMinor: toMinor(input.price) } : {}),
        ...(input.currency !== undefined ? { currency: input.currency } : {}),
        ...(input.features !== undefined ? { features: input.features } : {}),
        ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
        ...(input.credits !== undefined ? { credits: input.credits } : {}),
      });
      if (!row) throw new HttpError(404, BILLING_MESSAGES.planNotFound);
      const catalogue = await catalogueNow();
      if (catalogue) {
        const updated = row;
        if (updated.stripeProductId) {
          await providerCall(() =>
            catalogue.updateProduct(updated.stripeProductId as string, {
              name: updated.name,
              description: updated.description,
              active: updated.isActive,
            }),
          );
        }
        row = (await providerCall(() => syncPlan(catalogue, updated))).row;
      }
      return await planView(row);
    },

    async togglePlan(id: string) {
      const current = await mustPlan(id);
      const row = await repository.updatePlan(id, { isActive: !current.isActive });
      if (!row) throw new HttpError(404, BILLING_MESSAGES.planNotFound);
      const catalogue = await catalogueNow();
      if (catalogue && row.stripeProductId) {
        await providerCall(() =>
          catalogue.updateProduct(row.stripeProductId as string, { active: row.isActive }),
        );
      }
      return {
        data: await planView(row),
        message: row.isActive ? BILLING_MESSAGES.planActivated : BILLING_MESSAGES.planDeactivated,
      };
    },

    /** Existing subscriptions keep working: the plan is soft-deleted, its Product deactivated. */
    async deletePlan(id: string) {
      const current = await mustPlan(id);
      const catalogue = await catalogueNow();
      if (catalogue && current.stripeProductId) {
        await providerCall(() =>
          catalogue.updateProduct(current.stripeProductId as string, { active: false }),
        );
      }
      await repository.updatePlan(id, { deletedAt: new Date(), isActive: false });
    },

    async syncPlans(): Promise<SyncStripeResult> {
      return syncAll(
        BILLING_MESSAGES.plansSynced,
        "plan",
        () => repository.listPlans(false),
        syncPlan,
      );
    },

    /** The plan a checkout or a change sells, with a Stripe price made first if it has none. */
    async planForCheckout(id: string): Promise<SubscriptionPlanRow> {
      const row = await repository.findPlan(id);
      if (!row) throw new HttpError(404, BILLING_MESSAGES.planNotFound);
      if (!row.isActive) throw new HttpError(400, BILLING_MESSAGES.planInactive);
      const catalogue = await catalogueNow();
      if (catalogue && !row.stripePriceId) {
        return (await providerCall(() => syncPlan(catalogue, row))).row;
      }
      return row;
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
