import { CREDIT_MOVEMENT_KINDS } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

export const creditKind = pgEnum("credit_kind", CREDIT_MOVEMENT_KINDS);

/**
 * Every credit movement, append-only. `source_key` names what caused the movement
 * (`signup:<userId>`, a payment id, a call minute...): unique, so a replay changes nothing.
 * `balance_after` is the user's balance once the movement applied.
 */
export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /**
     * Null once the account was deleted: the movements paid for (purchase, plan grant, refund)
     * are kept for accounting, detached; the others are erased with the account (decision 0063).
     */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    kind: creditKind("kind").notNull(),
    amount: integer("amount").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    sourceKey: text("source_key").notNull().unique(),
    metadata: jsonb("metadata")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    // clock_timestamp(), not now(): movements of one user are serialised by the lock on the user
    // row, so the time of the insert (not of the transaction's start) orders them as applied,
    // and the newest row of a user's history is the one that left their current balance.
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index("credit_ledger_user_created_idx").on(table.userId, table.createdAt)],
);

export type CreditLedgerRow = typeof creditLedger.$inferSelect;
export type CreditKind = (typeof creditKind.enumValues)[number];
