// Money back and money contested: refunds, the charges they are on, and disputes.
import type { RefundInput } from "../types.ts";
import { call, orNull, type StripeDeps } from "./client.ts";
import { toCharge, toDispute, toRefund } from "./mappers.ts";

export const refund = (deps: StripeDeps, input: RefundInput) =>
  call(deps, async (client) =>
    toRefund(
      await client.refunds.create(
        {
          ...(input.paymentId.startsWith("ch_")
            ? { charge: input.paymentId }
            : { payment_intent: input.paymentId }),
          amount: input.amountMinor,
          reason: "requested_by_customer",
          metadata: input.metadata,
        },
        { idempotencyKey: `refund-${input.idempotencyKey}` },
      ),
    ),
  );

export const retrieveCharge = (deps: StripeDeps, chargeId: string) =>
  orNull(deps, async (client) =>
    toCharge(await client.charges.retrieve(chargeId, { expand: ["refunds"] })),
  );

export const retrieveDispute = (deps: StripeDeps, disputeId: string) =>
  orNull(deps, async (client) => toDispute(await client.disputes.retrieve(disputeId)));
