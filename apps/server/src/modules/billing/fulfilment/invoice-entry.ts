import type { InvoiceInfo } from "../../../providers/payments/index.ts";

export interface InvoiceEntry {
  /** credited: account credit (a negative amount), never revenue. */
  status: "success" | "credited";
  amountMinor: number;
  credits: number;
  itemName: string;
}

/**
 * What a paid subscription invoice records (docs/decisions/0034):
 * - a negative total (a downgrade's proration) is account credit for the next invoice: its own
 *   row, status credited, the amount negative; no credits taken back;
 * - a plan change's positive proration was charged at once; with it come the new plan's credits
 *   less the old plan's, for the current period;
 * - the first payment and every renewal bring the plan's credits;
 * - the amount is always what the card paid (after account credit), never the list price.
 */
export function invoiceEntry(
  invoice: Pick<InvoiceInfo, "totalMinor" | "amountPaid" | "billingReason">,
  planName: string,
  planCredits: number,
  previousPlanCredits: number | null,
): InvoiceEntry {
  if (invoice.totalMinor < 0) {
    return {
      status: "credited",
      amountMinor: invoice.totalMinor,
      credits: 0,
      itemName: `${planName} (downgrade: credited to your next invoice)`,
    };
  }
  if (invoice.billingReason === "subscription_update") {
    return {
      status: "success",
      amountMinor: invoice.amountPaid,
      credits: Math.max(0, planCredits - (previousPlanCredits ?? planCredits)),
      itemName: `${planName} (plan change: charged at once)`,
    };
  }
  return {
    status: "success",
    amountMinor: invoice.amountPaid,
    credits: planCredits,
    itemName: planName,
  };
}
