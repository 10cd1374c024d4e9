import { Link } from "react-router";

const linkClass =
  "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-600 dark:text-brand-300";

/** The terms a card payment is made under, linked where the fan pays (decision 0046). */
export function CheckoutTerms({ className }: { className?: string }) {
  return (
    <p className={className ?? "text-xs text-stone-600 dark:text-stone-400"}>
      Payments are made under our{" "}
      <Link to="/terms" className={linkClass}>
        Terms of Service
      </Link>{" "}
      and{" "}
      <Link to="/refunds" className={linkClass}>
        Refund Policy
      </Link>
      .
    </p>
  );
}
