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
