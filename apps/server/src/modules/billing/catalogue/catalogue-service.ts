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
import { discountedMinor, toBasisPoints, toMinor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import {
  type PaymentsCatalogue,
  type PaymentsProvider,
  PRODUCT_KIND_KEY,
  type Recurring,
} from "../../../providers/payments/index.ts";
import { providerCall } from "../provider-call.ts";
import type {
  CatalogueRepository,
  NewCreditPackage,
  NewSubscriptionPlan,
} from "./catalogue-repository.ts";
import { toCreditPackage, toSubscriptionPlan } from "./mappers.ts";

export interface CatalogueServiceOptions {
  repository: CatalogueRepository;
  payments: () => Promise<PaymentsProvider>;
}

type ProductKind = "package" | "plan";

const productMetadata = (kind: ProductKind, id: string) => ({
  [PRODUCT_KIND_KEY]: kind,
  twinline_id: id,
});

/** What a package charges at Stripe: its discounted price. */
const packageCharge = (row: Pick<CreditPackageRow, "priceMinor" | "discountBasisPoints">) =>
  discountedMinor(row.priceMinor, row.discountBasisPoints);

type CatalogueRow = CreditPackageRow | SubscriptionPlanRow;
/** The columns packages and plans share that the Stripe bookkeeping writes. */
type CatalogueRowChanges = Partial<
  Pick<
    NewCreditPackage & NewSubscriptionPlan,
    "stripeProductId" | "stripePriceId" | "isActive" | "deletedAt"
  >
>;

/** Where a credit package and a subscription plan differ for the Stripe Product and Price. */
interface CatalogueKind<Row extends CatalogueRow> {
  kind: ProductKind;
  notFound: string;
  inactive: string;
  find: (id: string) => Promise<Row | undefined>;
  update: (id: string, changes: CatalogueRowChanges) => Promise<Row | undefined>;
  /** The Stripe Price the row sells, and the billing_prices column that ties it to the row. */
  price: (row: Row) => {
    amountMinor: number;
    recurring: Recurring | null;
    owner: { packageId: string } | { planId: string };
  };
}

/**
 * Credit packages and subscription plans, kept in step with Stripe when a key is set
 * (admin-side section 4): a product per row, a new Price whenever the charged amount or the
 * currency changes (the old one is deactivated for new purchases and kept: subscribers stay on
 * it), a delete deactivates the Product. Without a key (sandbox) rows stay "Not synced".
 */
export function createCatalogueService({ repository, payments }: CatalogueServiceOptions) {
  const catalogueNow = async (): Promise<PaymentsCatalogue | null> => (await payments()).catalogue;

  const packages: CatalogueKind<CreditPackageRow> = {
    kind: "package",
    notFound: BILLING_MESSAGES.packageNotFound,
    inactive: BILLING_MESSAGES.packageInactive,
    find: (id) => repository.findPackage(id),
    update: (id, changes) => repository.updatePackage(id, changes),
    price: (row) => ({
      amountMinor: packageCharge(row),
      recurring: null,
      owner: { packageId: row.id },
    }),
  };
  const plans: CatalogueKind<SubscriptionPlanRow> = {
    kind: "plan",
    notFound: BILLING_MESSAGES.planNotFound,
    inactive: BILLING_MESSAGES.planInactive,
    find: (id) => repository.findPlan(id),
    update: (id, changes) => repository.updatePlan(id, changes),
    price: (row) => ({
      amountMinor: row.priceMinor,
      recurring: { interval: row.interval, intervalCount: row.intervalCount },
      owner: { planId: row.id },
    }),
  };

  /** A Stripe product and price for a row that has none (or lost them, or charges otherwise). */
  const syncRow = async <Row extends CatalogueRow>(
    of: CatalogueKind<Row>,
    catalogue: PaymentsCatalogue,
    row: Row,
  ): Promise<{ row: Row; created: boolean; updated: boolean }> => {
    let created = false;
    let updated = false;
    let productId = row.stripeProductId;
    const product = productId ? await catalogue.retrieveProduct(productId) : null;
    if (!product) {
      productId = (
        await catalogue.createProduct({
          name: row.name,
          description: row.description,
          metadata: productMetadata(of.kind, row.id),
        })
      ).id;
      created = true;
    } else if (product.name !== row.name || product.active !== row.isActive) {
      await catalogue.updateProduct(product.id, { name: row.name, active: row.isActive });
      updated = true;
    }
    if (!productId) throw new Error("unreachable");
    const { amountMinor, recurring, owner } = of.price(row);
    const price =
      row.stripePriceId && !created ? await catalogue.retrievePrice(row.stripePriceId) : null;
    let priceId = row.stripePriceId;
    if (!price || price.amountMinor !== amountMinor || price.currency !== row.currency) {
      const made = await catalogue.createPrice({
        productId,
        amountMinor,
        currency: row.currency,
        recurring,
        metadata: productMetadata(of.kind, row.id),
      });
      // The old Price stays for the subscriptions on it; no new checkout uses it.
      if (price?.active) await catalogue.deactivatePrice(price.id);
      if (price) await repository.deactivatePrice(price.id);
      await repository.recordPrice({
        priceId: made.id,
        provider: "stripe",
        ...owner,
        amountMinor,
        currency: row.currency,
      });
      priceId = made.id;
      if (!created) updated = true;
    }
    if (productId === row.stripeProductId && priceId === row.stripePriceId) {
      return { row, created, updated };
    }
    const saved = await of.update(row.id, { stripeProductId: productId, stripePriceId: priceId });
    return { row: saved ?? row, created, updated };
  };

  /** A new row gets its Stripe product and price at once when Stripe is on. */
  const syncCreated = async <Row extends CatalogueRow>(of: CatalogueKind<Row>, row: Row) => {
    const catalogue = await catalogueNow();
    return catalogue ? (await providerCall(() => syncRow(of, catalogue, row))).row : row;
  };

  /** An edited row's Product takes its name, description and state; a new charge, a new Price. */
  const syncEdited = async <Row extends CatalogueRow>(of: CatalogueKind<Row>, row: Row) => {
    const catalogue = await catalogueNow();
    if (!catalogue) return row;
    const productId = row.stripeProductId;
    if (productId) {
      await providerCall(() =>
        catalogue.updateProduct(productId, {
          name: row.name,
          description: row.description,
          active: row.isActive,
        }),
      );
    }
    return (await providerCall(() => syncRow(of, catalogue, row))).row;
  };

  const setProductActive = async (productId: string | null, active: boolean) => {
    const catalogue = await catalogueNow();
    if (catalogue && productId) {
      await providerCall(() => catalogue.updateProduct(productId, { active }));
    }
  };

  const orNotFound = <Row extends CatalogueRow>(of: CatalogueKind<Row>, row: Row | undefined) => {
    if (!row) throw new HttpError(404, of.notFound);
    return row;
  };
  const mustFind = async <Row extends CatalogueRow>(of: CatalogueKind<Row>, id: string) =>
    orNotFound(of, await of.find(id));

  const toggleActive = async <Row extends CatalogueRow>(of: CatalogueKind<Row>, id: string) => {
    const current = await mustFind(of, id);
    const row = orNotFound(of, await of.update(id, { isActive: !current.isActive }));
    await setProductActive(row.stripeProductId, row.isActive);
    return row;
  };

  const softDelete = async <Row extends CatalogueRow>(of: CatalogueKind<Row>, id: string) => {
    const current = await mustFind(of, id);
    await setProductActive(current.stripeProductId, false);
    await of.update(id, { deletedAt: new Date(), isActive: false });
  };

  /** What a checkout sells must be active, and has a Stripe price made first if it has none. */
  const forCheckout = async <Row extends CatalogueRow>(of: CatalogueKind<Row>, id: string) => {
    const row = await mustFind(of, id);
    if (!row.isActive) throw new HttpError(400, of.inactive);
    const catalogue = await catalogueNow();
    if (catalogue && !row.stripePriceId) {
      return (await providerCall(() => syncRow(of, catalogue, row))).row;
    }
    return row;
  };

  /** Products at Stripe made by this app whose local row is gone: deactivated. */
  const deactivateOrphans = async (
    catalogue: PaymentsCatalogue,
    kind: ProductKind,
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
  const syncAll = async <Row extends CatalogueRow>(
    message: string,
    of: CatalogueKind<Row>,
    listLive: () => Promise<Row[]>,
  ): Promise<SyncStripeResult> => {
    const catalogue = await catalogueNow();
    if (!catalogue) {
      return {
        success: true,
        message: BILLING_MESSAGES.stripeNotConfigured,
        mode: "sandbox",
        created: 0,
        updated: 0,
        deactivated: 0,
      };
    }
    return providerCall(async () => {
      let created = 0;
      let updated = 0;
      const live = await listLive();
      for (const row of live) {
        const result = await syncRow(of, catalogue, row);
        if (result.created) created += 1;
        else if (result.updated) updated += 1;
      }
      const deactivated = await deactivateOrphans(
        catalogue,
        of.kind,
        new Set(live.map((r) => r.id)),
      );
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
      const row = await repository.insertPackage({
        id,
        name: input.name,
        description: input.description,
        credits: input.credits,
        priceMinor: toMinor(input.price),
        currency: input.currency,
        discountBasisPoints: toBasisPoints(input.discount),
        isActive: input.isActive,
      });
      return toCreditPackage(await syncCreated(packages, row));
    },

    async updatePackage(id: string, input: CreditPackageUpdate) {
      await mustFind(packages, id);
      const row = await repository.updatePackage(id, {
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
      return toCreditPackage(await syncEdited(packages, orNotFound(packages, row)));
    },

    async togglePackage(id: string) {
      const row = await toggleActive(packages, id);
      return {
        data: toCreditPackage(row),
        message: row.isActive
          ? BILLING_MESSAGES.packageActivated
          : BILLING_MESSAGES.packageDeactivated,
      };
    },

    /** Earlier purchases keep their package (soft delete); the Stripe Product is deactivated. */
    async deletePackage(id: string) {
      await softDelete(packages, id);
    },

    async syncPackages(): Promise<SyncStripeResult> {
      return syncAll(BILLING_MESSAGES.packagesSynced, packages, () =>
        repository.listPackages(true),
      );
    },

    /** The package a checkout sells, with a Stripe price made first if it has none. */
    async packageForCheckout(id: string): Promise<CreditPackageRow> {
      return forCheckout(packages, id);
    },

    // ----- plans -----
    /** A plan even when deleted (subscriptions and sessions keep pointing at it). */
    findPlanAnyState: (id: string) => repository.findPlan(id, true),
    findPackageAnyState: (id: string) => repository.findPackage(id),

    async listPlans(activeOnly: boolean) {
      return plansWithCounts(await repository.listPlans(activeOnly));
    },

    async createPlan(input: SubscriptionPlanCreate) {
      const row = await repository.insertPlan({
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
        trialDays: input.trialDays,
      });
      return await planView(await syncCreated(plans, row));
    },

    async updatePlan(id: string, input: SubscriptionPlanUpdate) {
      const current = await mustFind(plans, id);
      if (
        (input.interval !== undefined && input.interval !== current.interval) ||
        (input.intervalCount !== undefined && input.intervalCount !== current.intervalCount)
      ) {
        throw new HttpError(400, BILLING_MESSAGES.intervalFixed);
      }
      const row = await repository.updatePlan(id, {
        name: input.name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.price !== undefined ? { priceMinor: toMinor(input.price) } : {}),
        ...(input.currency !== undefined ? { currency: input.currency } : {}),
        ...(input.features !== undefined ? { features: input.features } : {}),
        ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
        ...(input.credits !== undefined ? { credits: input.credits } : {}),
        ...(input.trialDays !== undefined ? { trialDays: input.trialDays } : {}),
      });
      return await planView(await syncEdited(plans, orNotFound(plans, row)));
    },

    async togglePlan(id: string) {
      const row = await toggleActive(plans, id);
      return {
        data: await planView(row),
        message: row.isActive ? BILLING_MESSAGES.planActivated : BILLING_MESSAGES.planDeactivated,
      };
    },

    /** Existing subscriptions keep working: the plan is soft-deleted, its Product deactivated. */
    async deletePlan(id: string) {
      await softDelete(plans, id);
    },

    async syncPlans(): Promise<SyncStripeResult> {
      return syncAll(BILLING_MESSAGES.plansSynced, plans, () => repository.listPlans(false));
    },

    /** The plan a checkout or a change sells, with a Stripe price made first if it has none. */
    async planForCheckout(id: string): Promise<SubscriptionPlanRow> {
      return forCheckout(plans, id);
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
