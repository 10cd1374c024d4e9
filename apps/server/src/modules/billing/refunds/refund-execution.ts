import { MONEY_TOOLS_MESSAGES } from "@twinline/contracts";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { type PaymentRefundRow, paymentRefunds } from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { ProviderError } from "../../../providers/errors.ts";
import {
  CardError,
  type PaymentsProvider,
  type SandboxPayments,
} from "../../../providers/payments/index.ts";
import { providerCall } from "../provider-call.ts";
import { returnWithdrawnCredits, settleRefund } from "./refunds-ledger.ts";

/** The database, the providers a refund is asked of, and the clock its times are written on. */
export interface RefundDeps {
  db: Database;
  payments: () => Promise<PaymentsProvider>;
  sandbox: SandboxPayments;
  /** THE billing clock: when a claim was made and settled, and when "left pending" began. */
  clock: Clock;
}

/** The provider that took the payment; a Stripe payment with Stripe off is a 400. */
export async function providerOf(
  deps: RefundDeps,
  provider: "stripe" | "sandbox",
): Promise<PaymentsProvider> {
  if (provider === "sandbox") return deps.sandbox;
  const configured = await deps.payments();
  if (configured.mode !== "stripe") {
    throw new HttpError(400, MONEY_TOOLS_MESSAGES.stripeNotConfigured);
  }
  return configured;
}

/** The claim failed: the money is refundable again, and a withdrawal's credits come back. */
export async function failRefund(deps: RefundDeps, refundId: string, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  const settledAt = new Date(deps.clock.now());
  await deps.db.transaction(async (tx) => {
    const [failed] = await tx
      .update(paymentRefunds)
      .set({ status: "failed", error: message.slice(0, 500), settledAt })
      .where(and(eq(paymentRefunds.id, refundId), eq(paymentRefunds.status, "pending")))
      .returning();
    // A withdrawal took its credits back when claimed: they return with the failure.
    if (failed) await returnWithdrawnCredits(tx, failed);
  });
}

/** The provider answered no (a refusal), as against not answering at all (try again later). */
export const isProviderRefusal = (error: unknown): boolean =>
  error instanceof CardError ||
  error instanceof HttpError ||
  (error instanceof ProviderError && error.status !== undefined);

/**
 * Asks the provider for a claimed refund, then settles it. A refusal (the provider answered)
 * fails the claim, so the money is refundable again; an unreachable provider leaves it pending
 * for the sweep, which asks again with the same idempotency key.
 */
export async function executeRefund(
  deps: RefundDeps,
  claim: PaymentRefundRow,
  providerPaymentId: string,
) {
  let providerRefundId: string;
  try {
    const provider = await providerOf(deps, claim.provider);
    const refund = await provider.refund({
      paymentId: providerPaymentId,
      amountMinor: claim.amountMinor,
      idempotencyKey: claim.id,
      metadata: { refundId: claim.id, paymentId: claim.paymentId ?? "" },
    });
    providerRefundId = refund.id;
  } catch (error) {
    if (isProviderRefusal(error)) await failRefund(deps, claim.id, error);
    if (error instanceof CardError) throw new HttpError(400, error.message);
    return providerCall(() => Promise.reject(error));
  }
  const settledAt = new Date(deps.clock.now());
  return deps.db.transaction((tx) => settleRefund(tx, claim.id, providerRefundId, settledAt));
}
