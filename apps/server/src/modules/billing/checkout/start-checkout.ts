import { MONEY_TOOLS_MESSAGES } from "@twinline/contracts";
import type { Database } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import { checkoutConsents, checkoutSessions, type UserRow } from "../../../db/schema/index.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { PaymentsProvider } from "../../../providers/payments/index.ts";
import {
  type PromotionsService,
  saleAfterProviderRounding,
} from "../promotions/promotions-service.ts";
import { providerCall } from "../provider-call.ts";
import type { CheckoutOf } from "./checkout-terms.ts";

export interface StartCheckoutDeps {
  db: Database;
  payments: () => Promise<PaymentsProvider>;
  promotions: PromotionsService;
  /** The billing clock's time: the sweep reads a session's age on it. */
  now: () => Date;
}

/**
 * Opens the provider's hosted page and records the session with its consent. The session is
 * recorded only after the provider made it: a fulfilment event that arrives before this insert
 * commits fails and is delivered again (decision 0017).
 */
export async function startCheckout(
  deps: StartCheckoutDeps,
  user: UserRow,
  origin: string,
  of: CheckoutOf,
): Promise<{ url: string; sessionId: string }> {
  const { db, payments, promotions, now } = deps;
  const provider = await payments();
  const successUrl = `${origin}${of.successPath}`;
  const cancelUrl = `${origin}${of.cancelPath}`;
  const discount = of.promotion
    ? await promotions.providerDiscount(of.promotion.applied, provider)
    : null;
  const created = await providerCall(() =>
    provider.createCheckoutSession({
      mode: of.mode,
      userId: user.id,
      email: user.email,
      item: of.item(provider),
      successUrl,
      cancelUrl,
      metadata: of.metadata,
      discount,
      trialDays: of.trialDays ?? 0,
    }),
  );
  const discountMinor = of.promotion?.applied.discountMinor ?? 0;
  const sale = of.promotion
    ? saleAfterProviderRounding(
        { amountMinor: of.recorded.amountMinor, discountMinor },
        created.amountTotalMinor,
      )
    : { amountMinor: of.recorded.amountMinor, discountMinor };
  try {
    // The session and the consent it was opened under are written together, or neither is.
    await db.transaction(async (tx) => {
      // The code's use is held with the session, counted under its lock (a race's loser is
      // told it is used up, and this session's URL is never answered).
      if (of.promotion) {
        await promotions.reserve(tx, of.promotion.applied.row.id, user.id, of.promotion.target);
      }
      await tx.insert(checkoutSessions).values({
        sessionId: created.sessionId,
        provider: provider.mode,
        mode: of.mode,
        userId: user.id,
        ...of.recorded,
        amountMinor: sale.amountMinor,
        promotionCodeId: of.promotion?.applied.row.id ?? null,
        promotionCode: of.promotion?.applied.row.code ?? null,
        discountMinor: sale.discountMinor,
        url: created.url,
        successUrl,
        cancelUrl,
        createdAt: now(),
        expiresAt: created.expiresAt,
      });
      await tx.insert(checkoutConsents).values({
        checkoutSessionId: created.sessionId,
        userId: user.id,
        ...of.consent,
        packageId: of.recorded.packageId ?? null,
        planId: of.recorded.planId ?? null,
        amountMinor: of.recorded.amountMinor,
        currency: of.recorded.currency,
      });
    });
  } catch (error) {
    // A parallel plan checkout of the same user was recorded first (decision 0051); this
    // session's URL is never answered, so it cannot be paid.
    if (isUniqueViolation(error)) throw new HttpError(409, MONEY_TOOLS_MESSAGES.planCheckoutOpen);
    throw error;
  }
  return { url: created.url, sessionId: created.sessionId };
}
