import { isLowBalance, LOW_BALANCE_TEXT } from "@twinline/contracts";
import { clsx } from "clsx";
import { TriangleAlert } from "lucide-react";
import { Link } from "react-router";

/**
 * The low-balance warning (issue 26, item 5): shown when the balance cannot pay one call minute
 * (the one rule, isLowBalance in packages/contracts); the overview, the credits page and the
 * sidebar show this same notice. `compact` fits the sidebar.
 */
export function LowBalanceNotice({
  credits,
  creditsPerMinute,
  compact = false,
  buyLink = true,
}: {
  credits: number | null | undefined;
  creditsPerMinute: number;
  compact?: boolean;
  /** A link to the credits page (not on the credits page itself). */
  buyLink?: boolean;
}) {
  if (typeof credits !== "number" || !isLowBalance(credits, creditsPerMinute)) return null;
  return (
    <div
      role="status"
      data-testid="low-balance"
      className={clsx(
        "flex items-start gap-2 rounded-xl border border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-400/40 dark:bg-amber-500/10 dark:text-amber-100",
        compact ? "p-2.5 text-xs" : "p-3.5 text-sm",
      )}
    >
      <TriangleAlert
        aria-hidden="true"
        className={compact ? "size-4 shrink-0" : "mt-0.5 size-5 shrink-0"}
      />
      <p>
        <strong className="font-semibold">{LOW_BALANCE_TEXT.title}: </strong>
        {LOW_BALANCE_TEXT.body(credits, creditsPerMinute)}
        {buyLink ? (
          <>
            {" "}
            <Link
              to="/dashboard/credits"
              className="font-semibold underline underline-offset-2 hover:no-underline"
            >
              Buy credits
            </Link>
          </>
        ) : null}
      </p>
    </div>
  );
}
