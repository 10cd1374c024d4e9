import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { formatDateTime, formatMoney } from "@/lib/format";
import { paymentDetailsQuery } from "../api/transactions";

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-stone-600 dark:text-stone-400">{term}</dt>
      <dd className="break-words text-stone-900 dark:text-white">{children}</dd>
    </>
  );
}

/**
 * A payment's details for the operator (issue 26, item 3): the consent the fan gave at its
 * checkout, word for word with its version, time and address; its refunds and withdrawal.
 */
function PaymentDetails({ paymentId }: { paymentId: string }) {
  const details = useQuery(paymentDetailsQuery(paymentId));
  if (details.isPending) return <LoadingState label="Loading the payment" />;
  if (details.isError) {
    return (
      <ErrorState
        layout="compact"
        message="Failed to load the payment"
        onRetry={() => void details.refetch()}
      />
    );
  }
  const { payment, consent, refunds } = details.data;
  return (
    <div className="space-y-5 text-sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5">
        <Row term="Item">{payment.itemName}</Row>
        <Row term="Amount">{formatMoney(payment.amount, payment.currency)}</Row>
        <Row term="Refunded">{formatMoney(payment.refundedAmount, payment.currency)}</Row>
        <Row term="Date">{formatDateTime(payment.transactionDate)}</Row>
        {payment.withdrawnAt ? (
          <Row term="Withdrawn">{formatDateTime(payment.withdrawnAt)}</Row>
        ) : null}
      </dl>
      <section aria-labelledby="consent-heading" data-testid="payment-consent">
        <h3 id="consent-heading" className="font-semibold text-stone-900 dark:text-white">
          Consent at checkout
        </h3>
        {consent ? (
          <>
            <blockquote className="mt-2 rounded-xl border border-stone-200 bg-stone-50 p-3 text-stone-800 dark:border-white/10 dark:bg-white/5 dark:text-stone-200">
              {consent.text}
            </blockquote>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5">
              <Row term="Version">{consent.version}</Row>
              <Row term="Accepted">{formatDateTime(consent.acceptedAt)}</Row>
              <Row term="Address">{consent.ipAddress}</Row>
              <Row term="Price shown">{formatMoney(consent.price, consent.currency)}</Row>
            </dl>
          </>
        ) : (
          <p className="mt-1 text-stone-600 dark:text-stone-400">
            No consent recorded (a payment made before consent was recorded).
          </p>
        )}
      </section>
      {refunds.length > 0 ? (
        <section aria-labelledby="refunds-heading">
          <h3 id="refunds-heading" className="font-semibold text-stone-900 dark:text-white">
            Refunds
          </h3>
          <ul className="mt-2 space-y-1">
            {refunds.map((refund) => (
              <li key={refund._id} className="text-stone-700 dark:text-stone-300">
                {formatDateTime(refund.createdAt)} · {refund.kind.replace("_", " ")} ·{" "}
                {formatMoney(refund.amount, refund.currency)} · {refund.status}
                {refund.creditsTaken > 0 ? ` · ${refund.creditsTaken} credits taken back` : ""}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** The Details button of a transaction row and the dialog it opens. */
export function PaymentDetailsButton({ paymentId }: { paymentId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="text-xs font-medium text-brand-700 underline underline-offset-2 hover:no-underline dark:text-brand-300"
      >
        Details
      </button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Payment details"
        className="max-w-lg"
        testId="payment-details"
      >
        {open ? <PaymentDetails paymentId={paymentId} /> : null}
      </Dialog>
    </>
  );
}
