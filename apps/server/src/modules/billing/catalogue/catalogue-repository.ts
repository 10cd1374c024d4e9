import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  billingPrices,
  type CreditPackageRow,
  creditPackages,
  type SubscriptionPlanRow,
  subscriptionPlans,
  userSubscriptions,
} from "../../../db/schema/index.ts";
import { isOpenSubscriptionSql } from "../../users/subscription-state.ts";

export type NewCreditPackage = typeof creditPackages.$inferInsert;
export type NewSubscriptionPlan = typeof subscriptionPlans.$inferInsert;
export type NewBillingPrice = typeof billingPrices.$inferInsert;

export function createCatalogueRepository(db: Database) {
  return {
    /** Packages not deleted, by credits ascending; only active ones unless `all`. */
    async listPackages(all: boolean): Promise<CreditPackageRow[]> {
      return db
        .select()
        .from(creditPackages)
        .where(
          all
            ? isNull(creditPackages.deletedAt)
            : and(isNull(creditPackages.deletedAt), eq(creditPackages.isActive, true)),
        )
        .orderBy(asc(creditPackages.credits), asc(creditPackages.createdAt));
    },
    async findPackage(id: string): Promise<CreditPackageRow | undefined> {
      const [row] = await db
        .select()
        .from(creditPackages)
        .where(and(eq(creditPackages.id, id), isNull(creditPackages.deletedAt)));
      return row;
    },
    /** Deleted ones too (sync-stripe deactivates their products). */
    async allPackagesEver(): Promise<CreditPackageRow[]> {
      return db.select().from(creditPackages);
    },
    async insertPackage(values: NewCreditPackage): Promise<CreditPackageRow> {
      const [row] = await db.insert(creditPackages).values(values).returning();
      if (!row) throw new Error("insert returned nothing");
      return row;
    },
    async updatePackage(
      id: string,
      changes: Partial<NewCreditPackage>,
    ): Promise<CreditPackageRow | undefined> {
      const [row] = await db
        .update(creditPackages)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(and(eq(creditPackages.id, id), isNull(creditPackages.deletedAt)))
        .returning();
      return row;
    },

    async listPlans(activeOnly: boolean): Promise<SubscriptionPlanRow[]> {
      return db
        .select()
        .from(subscriptionPlans)
        .where(
          activeOnly
            ? and(isNull(subscriptionPlans.deletedAt), eq(subscriptionPlans.isActive, true))
            : isNull(subscriptionPlans.deletedAt),
        )
        .orderBy(asc(subscriptionPlans.priceMinor), asc(subscriptionPlans.createdAt));
    },
    async findPlan(id: string, includeDeleted = false): Promise<SubscriptionPlanRow | undefined> {
      const [row] = await db
        .select()
        .from(subscriptionPlans)
        .where(
          includeDeleted
            ? eq(subscriptionPlans.id, id)
            : and(eq(subscriptionPlans.id, id), isNull(subscriptionPlans.deletedAt)),
        );
      return row;
    },
    async allPlansEver(): Promise<SubscriptionPlanRow[]> {
      return db.select().from(subscriptionPlans);
    },
    async insertPlan(values: NewSubscriptionPlan): Promise<SubscriptionPlanRow> {
      const [row] = await db.insert(subscriptionPlans).values(values).returning();
      if (!row) throw new Error("insert returned nothing");
      return row;
    },
    async updatePlan(
      id: string,
      changes: Partial<NewSubscriptionPlan>,
    ): Promise<SubscriptionPlanRow | undefined> {
      const [row] = await db
        .update(subscriptionPlans)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(and(eq(subscriptionPlans.id, id), isNull(subscriptionPlans.deletedAt)))
        .returning();
      return row;
    },
    /** Open subscriptions per plan (active or past due), for the admin's cards. */
    async subscriberCounts(planIds: string[]): Promise<Map<string, number>> {
      if (planIds.length === 0) return new Map();
      const rows = await db
        .select({ planId: userSubscriptions.planId, n: count() })
        .from(userSubscriptions)
        .where(and(inArray(userSubscriptions.planId, planIds), isOpenSubscriptionSql()))
        .groupBy(userSubscriptions.planId);
      return new Map(rows.map((row) => [row.planId, row.n]));
    },

    /** Keeps a price (the one in force, later an old one subscribers stay on). */
    async recordPrice(values: NewBillingPrice): Promise<void> {
      await db
        .insert(billingPrices)
        .values(values)
        .onConflictDoUpdate({
          target: billingPrices.priceId,
          set: { active: values.active ?? true },
        });
    },
    async deactivatePrice(priceId: string): Promise<void> {
      await db
        .update(billingPrices)
        .set({ active: false })
        .where(eq(billingPrices.priceId, priceId));
    },
  };
}

export type CatalogueRepository = ReturnType<typeof createCatalogueRepository>;
