import { TextField } from "@/components/ui/field";
import { useOpeningState } from "@/hooks/use-opening-state";
import { formatMoney } from "@/lib/format";
import { refundPayment } from "../api/money";
import { useMoneyAction } from "../hooks/use-money-action";
import { useMoneyForm } from "../hooks/use-money-form";
import { MoneyDialog } from "./money-dialog";
import type { TransactionColumn } from "./transactions-table";

export interface RefundTarget {
  _id: string;
  /** "500 credits", "Superfan": what was bought. */
  label: string;
  amount: number;
  refundedAmount: number;
  currency: string;
  /**
   * The latest payment of the user's subscription in force: refunding it may also end the plan
   * (issue 24), which otherwise keeps renewing.
   */
  endsSubscription?: boolean;
}

/** A refund of one payment, whole (amount left empty) or part, with its reason. */
export function RefundDialog({
  target,
  onClose,
}: {
  target: RefundTarget | null;
  onClose: () => void;
}) {
  const open = target !== null;
  const [amount, setAmount] = useOpeningState(open, "");
  const [endSubscription, setEndSubscription] = useOpeningState(open, false);
  const refund = useMoneyAction(
    (input: {
      paymentId: string;
      amount?: number;
      reason: string;
      requestId: string;
      endSubscription?: boolean;
    }) => refundPayment(input.paymentId, input),
  );
  const form = useMoneyForm(open, refund.reset);

  const left = target ? Math.round((target.amount - target.refundedAmount) * 100) / 100 : 0;
  const parsed = amount.trim() === "" ? undefined : Number(amount);
  const amountError =
    parsed !== undefined && (!Number.isFinite(parsed) || parsed <= 0 || parsed > left)
      ? `Enter an amount between 0.01 and ${left.toFixed(2)}`
      : undefined;

  return (
    <MoneyDialog
      open={open}
      testId="refund-dialog"
      title="Refund payment?"
      description={
        target && (
          <>
            {target.label}, paid {formatMoney(target.amount, target.currency)}
            {target.refundedAmount > 0
              ? ` (${formatMoney(target.refundedAmount, target.currency)} refunded already)`
              : ""}
            . The money goes back to the card; the credits it bought are taken back in proportion,
            as many as the user still has.
          </>
        )
      }
      confirmLabel={
        parsed === undefined || amountError
          ? `Refund ${formatMoney(left, target?.currency)}`
          : `Refund ${formatMoney(parsed, target?.currency)}`
      }
      destructive
      pending={refund.isPending}
      error={refund.error}
      fallbackError="Failed to refund payment"
      onClose={onClose}
      onConfirm={() => {
        form.touch();
        if (!target || amountError || form.reasonMissing) return;
        refund.mutate(
          {
            paymentId: target._id,
            ...(parsed !== undefined ? { amount: parsed } : {}),
            reason: form.reason,
            requestId: form.requestId,
            ...(target.endsSubscription && endSubscription ? { endSubscription: true } : {}),
          },
          { onSuccess: onClose },
        );
      }}
    >
      <TextField
        label="Amount (empty: all that is left)"
        inputMode="decimal"
        placeholder={left.toFixed(2)}
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        error={amountError}
      />
      {target?.endsSubscription ? (
        <div className="space-y-1.5">
          <label className="flex items-center gap-2.5 text-sm text-stone-700 dark:text-stone-300">
            <input
              type="checkbox"
              checked={endSubscription}
              onChange={(event) => setEndSubscription(event.target.checked)}
              className="size-4 rounded border-stone-300 accent-brand-600"
            />
            Also end the subscription now
          </label>
          <p className="text-xs text-stone-600 dark:text-stone-400" data-testid="ends-plan-note">
            This is the latest payment of the user's plan. A refund alone does not stop the plan: it
            stays active and renews. Ending it now stops renewal and the plan at once, as Cancel now
            does.
          </p>
        </div>
      ) : null}
      <TextField {...form.reasonField} />
    </MoneyDialog>
  );
}

/**
 * The transaction tabs' Status column with the refund action beside the badge (the spec's
 * headers stay as they are): Refund on a payment with money left to give back, a failed one
 * that was charged anyway included (the server says which: `refundable`).
 */
export function withRefundAction<
  T extends {
    _id: string;
    amount: number;
    refundedAmount: number;
    currency: string;
    status: string;
    refundable: boolean;
  },
>(
  columns: TransactionColumn<T>[],
  label: (row: T) => string,
  onRefund: (target: RefundTarget) => void,
  /** Whether refunding this row may end the user's plan (the latest plan payment). */
  endsSubscription: (row: T) => boolean = () => false,
): TransactionColumn<T>[] {
  return columns.map((column) =>
    column.label !== "Status"
      ? column
      : {
          ...column,
          render: (row: T) => (
            <span className="inline-flex items-center gap-2">
              {column.render ? column.render(row) : row.status}
              {row.refundable ? (
                <button
                  type="button"
                  onClick={() =>
                    onRefund({
                      _id: row._id,
                      label: label(row),
                      amount: row.amount,
                      refundedAmount: row.refundedAmount,
                      currency: row.currency,
                      endsSubscription: endsSubscription(row),
                    })
                  }
                  className="rounded-md text-xs font-semibold text-red-700 underline-offset-2 hover:underline dark:text-red-300"
                >
                  Refund
                </button>
              ) : null}
            </span>
          ),
        },
  );
}
