import { BILLING_MESSAGES, type SyncStripeResult } from "@twinline/contracts";
import {
  type PaymentsCatalogue,
  type PaymentsProvider,
  PRODUCT_KIND_KEY,
} from "../../../providers/payments/index.ts";
import { providerCall } from "../provider-call.ts";
import {
  type CatalogueKind,
  type CatalogueRow,
  type ProductKind,
  productMetadata,
} from "./catalogue-kinds.ts";
import type { CatalogueRepository } from "./catalogue-repository.ts";

/** The rows, and the provider whose catalogue (Stripe's; none in the sandbox) mirrors them. */
export interface CatalogueDeps {
  repository: CatalogueRepository;
  payments: () => Promise<PaymentsProvider>;
}

/** The provider's catalogue as it is now: null in the sandbox (rows stay "Not synced"). */
export const catalogueNow = async (deps: CatalogueDeps): Promise<PaymentsCatalogue | null> =>
  (await deps.payments()).catalogue;

/** A Stripe product and price for a row that has none (or lost them, or charges otherwise). */
export async function syncRow<Row extends CatalogueRow>(
  repository: CatalogueRepository,
  of: CatalogueKind<Row>,
  catalogue: PaymentsCatalogue,
  row: Row,
): Promise<{ row: Row; created: boolean; updated: boolean }> {
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
}

/** A new row gets its Stripe product and price at once when Stripe is on. */
export async function syncCreated<Row extends CatalogueRow>(
  deps: CatalogueDeps,
  of: CatalogueKind<Row>,
  row: Row,
): Promise<Row> {
  const catalogue = await catalogueNow(deps);
  return catalogue
    ? (await providerCall(() => syncRow(deps.repository, of, catalogue, row))).row
    : row;
}

/** An edited row's Product takes its name, description and state; a new charge, a new Price. */
export async function syncEdited<Row extends CatalogueRow>(
  deps: CatalogueDeps,
  of: CatalogueKind<Row>,
  row: Row,
): Promise<Row> {
  const catalogue = await catalogueNow(deps);
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
  return (await providerCall(() => syncRow(deps.repository, of, catalogue, row))).row;
}

export async function setProductActive(
  deps: CatalogueDeps,
  productId: string | null,
  active: boolean,
) {
  const catalogue = await catalogueNow(deps);
  if (catalogue && productId) {
    await providerCall(() => catalogue.updateProduct(productId, { active }));
  }
}

/** Products at Stripe made by this app whose local row is gone: deactivated. */
async function deactivateOrphans(
  catalogue: PaymentsCatalogue,
  kind: ProductKind,
  liveIds: Set<string>,
): Promise<number> {
  let deactivated = 0;
  for (const product of await catalogue.listProducts()) {
    if (product.metadata[PRODUCT_KIND_KEY] !== kind || !product.active) continue;
    const localId = product.metadata.twinline_id;
    if (localId && liveIds.has(localId)) continue;
    await catalogue.updateProduct(product.id, { active: false });
    deactivated += 1;
  }
  return deactivated;
}

/**
 * "Sync with Stripe" for one kind: every live row gets its Product and Price (made or
 * updated), Products whose row is gone are deactivated; in the sandbox nothing is to sync.
 */
export async function syncAll<Row extends CatalogueRow>(
  deps: CatalogueDeps,
  message: string,
  of: CatalogueKind<Row>,
  listLive: () => Promise<Row[]>,
): Promise<SyncStripeResult> {
  const catalogue = await catalogueNow(deps);
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
      const result = await syncRow(deps.repository, of, catalogue, row);
      if (result.created) created += 1;
      else if (result.updated) updated += 1;
    }
    const deactivated = await deactivateOrphans(catalogue, of.kind, new Set(live.map((r) => r.id)));
    return {
      success: true as const,
      message,
      mode: "stripe" as const,
      created,
      updated,
      deactivated,
    };
  });
}
