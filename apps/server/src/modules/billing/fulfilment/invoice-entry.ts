import { moneyText } from "../../../lib/money.ts";
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
 * - a plan change's positive proration was charged at once (its account credit used first, and
 *   then the name says how much of it was paid from that credit); with it come the new plan's
 *   credits less those the period already covers (`coveredCredits`: the highest plan held in it
 *   so far), so a period's plan credits never exceed its highest plan's, however often the plan
 *   goes down and up again (issue 24);
 * - the first payment and every renewal bring the plan's credits, except a free trial's $0 first
 *   invoice (decision 0083): a trial grants no paid credits; they come with its first charge;
 * - the amount is always what the card paid (after account credit), never the list price.
 */
export function invoiceEntry(
  invoice: Pick<
    InvoiceInfo,
    "totalMinor" | "amountPaid" | "billingReason" | "creditAppliedMinor" | "currency"
  >,
  planName: string,
  planCredits: number,
  coveredCredits: number | null,
  /** Whether the subscription started with a free trial: its first invoice is the trial's. */
  trial = false,
): InvoiceEntry {
  if (trial && invoice.billingReason === "subscription_create") {
    return { status: "success", amountMinor: 0, credits: 0, itemName: `${planName} (free trial)` };
  }
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
      credits: Math.max(0, planCredits - (coveredCredits ?? planCredits)),
      itemName: `${planName} (plan change: ${changePaidWith(invoice)})`,
    };
  }
  return {
    status: "success",
    amountMinor: invoice.amountPaid,
    credits: planCredits,
    itemName: planName,
  };
}

/** How a plan change's charge was paid, in the words the panel uses too. */
function changePaidWith(
  invoice: Pick<InvoiceInfo, "amountPaid" | "creditAppliedMinor" | "currency">,
): string {
  if (invoice.creditAppliedMinor <= 0) return "charged at once";
  const fromCredit = `${moneyText(invoice.creditAppliedMinor, invoice.currency)} paid from your account credit`;
  return invoice.amountPaid > 0 ? `charged at once, ${fromCredit}` : fromCredit;
}
