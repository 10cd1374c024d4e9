import { CURRENCIES, type Currency } from "@twinline/contracts";
import { toMajor } from "../../../lib/money.ts";

/** An amount in minor units with its currency (as the provider reports it, any case). */
export interface MoneyAmount {
  amountMinor: number;
  currency: string;
}

/** The provider's currency as ours, or null when this app does not sell in it. */
export const knownCurrency = (value: string): Currency | null => {
  const lower = value.toLowerCase();
  return (CURRENCIES as readonly string[]).includes(lower) ? (lower as Currency) : null;
};

const show = (money: MoneyAmount) =>
  `${toMajor(money.amountMinor).toFixed(2)} ${money.currency.toUpperCase()}`;

/**
 * Why a payment does not match what was sold, or null when it does (docs/decisions/0036): the
 * amount the provider took and its currency must equal the price of the sale exactly. A
 * mismatch grants nothing; the reason is kept on the payment row for the admin.
 */
export function paymentMismatch(sold: MoneyAmount, paid: MoneyAmount): string | null {
  const sameCurrency = sold.currency.toLowerCase() === paid.currency.toLowerCase();
  if (sameCurrency && sold.amountMinor === paid.amountMinor) return null;
  return `Paid ${show(paid)} for a sale of ${show(sold)}: nothing granted`;
}
