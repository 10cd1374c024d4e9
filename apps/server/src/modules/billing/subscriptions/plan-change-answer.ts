import { toMajor } from "../../../lib/money.ts";
import type { InvoiceInfo } from "../../../providers/payments/index.ts";

/** A plan change as the fan reads it: dearer, cheaper, or the same price. */
export function planChangeKind(
  fromPriceMinor: number,
  toPriceMinor: number,
): "upgrade" | "downgrade" | "change" {
  if (toPriceMinor > fromPriceMinor) return "upgrade";
  if (toPriceMinor < fromPriceMinor) return "downgrade";
  return "change";
}

/**
 * What the change's invoice did, in major units: charged now (positive, after account credit)
 * or credited to the next invoice (negative), and how much account credit paid for a charge.
 */
export function prorationShown(invoice: InvoiceInfo | null | undefined): {
  proratedAmount: number;
  paidFromAccountCredit: number;
} {
  if (!invoice) return { proratedAmount: 0, paidFromAccountCredit: 0 };
  const proratedMinor = invoice.totalMinor < 0 ? invoice.totalMinor : invoice.amountPaid;
  return {
    proratedAmount: toMajor(proratedMinor),
    paidFromAccountCredit: invoice.totalMinor > 0 ? toMajor(invoice.creditAppliedMinor) : 0,
  };
}
