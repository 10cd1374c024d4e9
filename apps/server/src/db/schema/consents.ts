import { CONSENT_KINDS } from "@twinline/contracts";
import { index, integer, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { billingCurrency, creditPackages, subscriptionPlans } from "./billing.ts";
import { users } from "./users.ts";

// Consent given at checkout (issue 26, item 3; docs/decisions/0064).

export const consentKind = pgEnum("consent_kind", CONSENT_KINDS);

/**
 * One consent per checkout session: who, when, from which address, the exact words shown (the
 * server's own rendering of them) and their version, what was sold and at which price. Kept at
 * least three years: nothing here deletes them, and the fan's row going leaves the record with
 * no person (`user_id` set null), as payment records are kept.
 */
export const checkoutConsents = pgTable(
  "checkout_consents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The provider's checkout session (cs_*, or the sandbox's): its payments name it. */
    checkoutSessionId: text("checkout_session_id").notNull().unique(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    kind: consentKind("kind").notNull(),
    version: text("version").notNull(),
    text: text("text").notNull(),
    packageId: uuid("package_id").references(() => creditPackages.id),
    planId: uuid("plan_id").references(() => subscriptionPlans.id),
    amountMinor: integer("amount_minor").notNull(),
    currency: billingCurrency("currency").notNull(),
    ipAddress: text("ip_address").notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("checkout_consents_user_idx").on(table.userId)],
);
export type CheckoutConsentRow = typeof checkoutConsents.$inferSelect;
