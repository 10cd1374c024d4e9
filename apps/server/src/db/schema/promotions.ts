import { PROMOTION_APPLIES_TO, PROMOTION_KINDS } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { billingCurrency } from "./billing.ts";

// Promotion codes (issue 27 item 4; docs/decisions/0083).

export const promotionKind = pgEnum("promotion_kind", PROMOTION_KINDS);
export const promotionAppliesTo = pgEnum("promotion_applies_to", PROMOTION_APPLIES_TO);

/**
 * A code the admin made: a percentage (hundredths of a percent) or a fixed amount (minor units in
 * `currency`) off, for packages, plans or both, until `expires_at`, at most `max_redemptions`
 * times (null: no limit) and once per fan. Its uses are the checkout sessions that carry it
 * (checkout_sessions.promotion_code_id): paid ones, and open ones until they expire. A checkout
 * locks this row while it counts them, so two fans taking the last use cannot both have it.
 * On Stripe it is a coupon and a promotion code (their ids below, made when first needed).
 */
export const promotionCodes = pgTable(
  "promotion_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Upper case; unique. */
    code: text("code").notNull().unique(),
    kind: promotionKind("kind").notNull(),
    percentBasisPoints: integer("percent_basis_points"),
    amountOffMinor: integer("amount_off_minor"),
    currency: billingCurrency("currency"),
    appliesTo: promotionAppliesTo("applies_to").notNull(),
    maxRedemptions: integer("max_redemptions"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    isActive: boolean("is_active").notNull().default(true),
    stripeCouponId: text("stripe_coupon_id"),
    stripePromotionCodeId: text("stripe_promotion_code_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "promotion_codes_amount_shape",
      sql`(${table.kind} = 'percent' and ${table.percentBasisPoints} between 1 and 9999 and ${table.amountOffMinor} is null)
        or (${table.kind} = 'amount' and ${table.amountOffMinor} > 0 and ${table.currency} is not null and ${table.percentBasisPoints} is null)`,
    ),
    check(
      "promotion_codes_max_redemptions_positive",
      sql`${table.maxRedemptions} is null or ${table.maxRedemptions} > 0`,
    ),
    index("promotion_codes_created_idx").on(table.createdAt, table.id),
  ],
);
export type PromotionCodeRow = typeof promotionCodes.$inferSelect;
