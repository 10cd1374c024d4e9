import type {
  ADMIN_USER_TRANSACTION_SORT_FIELDS,
  CREDIT_TRANSACTION_SORT_FIELDS,
  SUBSCRIPTION_HISTORY_SORT_FIELDS,
  SUBSCRIPTION_TRANSACTION_SORT_FIELDS,
} from "@twinline/contracts";
import { type AnyColumn, asc, desc, type SQL, sql } from "drizzle-orm";
import { payments, subscriptionEvents, users } from "../../../db/schema/index.ts";

type PaymentSortField =
  | (typeof CREDIT_TRANSACTION_SORT_FIELDS)[number]
  | (typeof SUBSCRIPTION_TRANSACTION_SORT_FIELDS)[number]
  | (typeof ADMIN_USER_TRANSACTION_SORT_FIELDS)[number];
type HistorySortField = (typeof SUBSCRIPTION_HISTORY_SORT_FIELDS)[number];

const byUserName = sql`lower(${users.name})`;

// Every payment list's sort, admin's and user details' alike: one column per field name, each
// served by an index of schema/billing.ts (kind first).
const PAYMENT_SORT_COLUMNS: Record<PaymentSortField, SQL | AnyColumn> = {
  transactionDate: payments.transactionDate,
  credits: payments.credits,
  amount: payments.amountMinor,
  status: payments.status,
  packageName: payments.itemName,
  planName: payments.itemName,
  stripePaymentId: payments.stripePaymentId,
  transactionId: sql`coalesce(${payments.stripePaymentId}, ${payments.invoiceId})`,
  user: byUserName,
};

const HISTORY_SORT_COLUMNS: Record<HistorySortField, SQL | AnyColumn> = {
  timestamp: subscriptionEvents.timestamp,
  eventType: subscriptionEvents.eventType,
  status: subscriptionEvents.status,
  amount: subscriptionEvents.amountMinor,
  startDate: subscriptionEvents.startDate,
  endDate: subscriptionEvents.endDate,
  planName: subscriptionEvents.planName,
  user: byUserName,
};

export const paymentSortColumn = (field: PaymentSortField) => PAYMENT_SORT_COLUMNS[field];
export const historySortColumn = (field: HistorySortField) => HISTORY_SORT_COLUMNS[field];

/** 1 ascending, anything else descending (the lists' sortOrder). */
export const order = (column: SQL | AnyColumn, direction: number) =>
  direction === 1 ? asc(column) : desc(column);
