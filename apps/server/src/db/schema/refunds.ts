import { REFUND_KINDS, REFUND_STATUSES } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { billingCurrency, paymentProvider, payments } from "./billing.ts";
import { users } from "./users.ts";

// Refunds and disputes (issue 16, docs/decisions/0050).

/** admin: the operator's refund; provider: made in Stripe's dashboard; dispute: a chargeback;
 * duplicate_subscription: a subscription that must not stay in force, ended and refunded
 * automatically: the second of two plan payments (decision 0051), or one whose first payment
 * was not the plan's price (decision 0036); failed_payment: the operator gives back the money a
 * failed payment took (a package paid at a wrong amount, decision 0036): no credits to take;
 * withdrawal: the fan withdrew within 14 days (decision 0065): its credits were taken back when
 * it was claimed, not in proportion when it settles. */
export const refundKind = pgEnum("refund_kind", REFUND_KINDS);
export const refundStatus = pgEnum("refund_status", REFUND_STATUSES);

/**
 * Every refund and dispute of a payment, one row each. A row is written `pending` BEFORE the
 * provider is asked (its id is the idempotency key), so parallel requests cannot give back more
 * than was paid and a crash leaves a row to settle. `provider_refund_id` (re_*, a dispute's dp_*)
 * is unique: a webhook about a refund already recorded changes nothing. `source_key` names what
 * asked for it (an admin request, `refund:<re_id>`, `dispute:<dp_id>`, `duplicate:<sub_id>`).
 */
export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null only while a duplicate subscription's payment is not recorded yet. */
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "cascade" }),
    /** Null once the account was deleted: kept for accounting, detached (decision 0063). */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    kind: refundKind("kind").notNull(),
    status: refundStatus("status").notNull().default("pending"),
    provider: paymentProvider("provider").notNull(),
    amountMinor: integer("amount_minor").notNull(),
    currency: billingCurrency("currency").notNull(),
    reason: text("reason").notNull().default(""),
    /** Credits taken back, and those the user no longer had (the shortfall). */
    creditsTaken: integer("credits_taken").notNull().default(0),
    creditsShortfall: integer("credits_shortfall").notNull().default(0),
    providerRefundId: text("provider_refund_id").unique(),
    sourceKey: text("source_key").notNull().unique(),
    adminId: uuid("admin_id").references(() => users.id, { onDelete: "set null" }),
    error: text("error"),
    metadata: jsonb("metadata")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (table) => [
    check("payment_refunds_amount_not_negative", sql`${table.amountMinor} >= 0`),
    index("payment_refunds_payment_idx").on(table.paymentId),
    index("payment_refunds_pending_idx")
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending'`),
  ],
);
export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;
