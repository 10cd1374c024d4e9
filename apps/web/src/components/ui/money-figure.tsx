import { formatMoney, type MoneyByCurrency, otherCurrencies } from "@/lib/format";

/**
 * A revenue figure: the USD amount as the headline, and each other currency beside it on its own
 * line ("€99.99 · ₹500.00"); currencies are never added together.
 */
export function MoneyFigure({ metric }: { metric: MoneyByCurrency }) {
  const others = otherCurrencies(metric);
  return (
    <>
      {formatMoney(metric.value, "usd")}
      {others.length > 0 ? (
        <span
          className="mt-0.5 block text-sm font-medium text-stone-500 tabular-nums dark:text-stone-400"
          data-testid="other-currencies"
        >
          {others.join(" · ")}
        </span>
      ) : null}
    </>
  );
}

/**
 * A payment's amount as paid, and under it what a promotion code took off ("-$5.00 HALF-OFF"),
 * on the fan's and the admin's transaction lists (issue 27 item 4).
 */
export function PaidAmount({
  payment,
}: {
  payment: { amount: number; currency: string; discount?: number; promotionCode?: string | null };
}) {
  return (
    <>
      {formatMoney(payment.amount, payment.currency)}
      {payment.discount ? (
        <span
          className="block text-xs text-stone-500 dark:text-stone-400"
          data-testid="payment-discount"
        >
          -{formatMoney(payment.discount, payment.currency)}
          {payment.promotionCode ? ` ${payment.promotionCode}` : ""}
        </span>
      ) : null}
    </>
  );
}
