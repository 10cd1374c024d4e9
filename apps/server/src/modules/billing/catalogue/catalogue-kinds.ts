import { BILLING_MESSAGES } from "@twinline/contracts";
import type { CreditPackageRow, SubscriptionPlanRow } from "../../../db/schema/index.ts";
import { discountedMinor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { PRODUCT_KIND_KEY, type Recurring } from "../../../providers/payments/index.ts";
import type {
  CatalogueRepository,
  NewCreditPackage,
  NewSubscriptionPlan,
} from "./catalogue-repository.ts";

export type ProductKind = "package" | "plan";

/** What ties a Stripe Product or Price to its row (and tells this app's products apart). */
export const productMetadata = (kind: ProductKind, id: string) => ({
  [PRODUCT_KIND_KEY]: kind,
  twinline_id: id,
});

/** What a package charges at Stripe: its discounted price. */
export const packageCharge = (row: Pick<CreditPackageRow, "priceMinor" | "discountBasisPoints">) =>
  discountedMinor(row.priceMinor, row.discountBasisPoints);

export type CatalogueRow = CreditPackageRow | SubscriptionPlanRow;
/** The columns packages and plans share that the Stripe bookkeeping writes. */
export type CatalogueRowChanges = Partial<
  Pick<
    NewCreditPackage & NewSubscriptionPlan,
    "stripeProductId" | "stripePriceId" | "isActive" | "deletedAt"
  >
>;

/** Where a credit package and a subscription plan differ for the Stripe Product and Price. */
export interface CatalogueKind<Row extends CatalogueRow> {
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

export const packageKind = (repository: CatalogueRepository): CatalogueKind<CreditPackageRow> => ({
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
});

export const planKind = (repository: CatalogueRepository): CatalogueKind<SubscriptionPlanRow> => ({
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
});

/** The row, or the kind's 404. */
export const orNotFound = <Row extends CatalogueRow>(
  of: CatalogueKind<Row>,
  row: Row | undefined,
): Row => {
  if (!row) throw new HttpError(404, of.notFound);
  return row;
};

export const mustFind = async <Row extends CatalogueRow>(
  of: CatalogueKind<Row>,
  id: string,
): Promise<Row> => orNotFound(of, await of.find(id));
