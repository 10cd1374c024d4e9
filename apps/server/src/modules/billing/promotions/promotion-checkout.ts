import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { type PromotionCodeRow, promotionCodes } from "../../../db/schema/index.ts";
import type { CheckoutDiscount, PaymentsProvider } from "../../../providers/payments/index.ts";
import { providerCall } from "../provider-call.ts";
import { byCode, byId, uses } from "./promotion-queries.ts";
import { type AppliedPromotion, checkPromotion, type PromotionTarget } from "./promotion-terms.ts";
import type { PromotionsDeps } from "./promotions-deps.ts";

/**
 * The checkout's first look at a code (clear 400s naming `promotionCode`): applies, and the
 * fan has not used it. Nothing is held yet: `reserve` counts again under the lock.
 */
export async function preview(
  { db, now }: PromotionsDeps,
  userId: string,
  code: string,
  target: PromotionTarget,
) {
  const at = now();
  const row = await byCode(db, code, false);
  const applied = checkPromotion(row, target, at, row ? await uses(db, row.id, userId, at) : null);
  return applied;
}

/**
 * Holds a use of the code for this checkout, in the transaction that records its session:
 * the code's row is locked while its uses are counted, so of two fans taking the last use,
 * one has it and the other is told it is used up.
 */
export async function reserve(
  { now }: PromotionsDeps,
  tx: Database,
  codeId: string,
  userId: string,
  target: PromotionTarget,
) {
  const at = now();
  const row = await byId(tx, codeId, true);
  return checkPromotion(row, target, at, await uses(tx, codeId, userId, at));
}

/** The provider's side of a code (Stripe's coupon and promotion code), made once. */
export async function atProvider(
  db: Database,
  row: PromotionCodeRow,
  provider: PaymentsProvider,
): Promise<PromotionCodeRow> {
  if (provider.mode !== "stripe" || !provider.catalogue || row.stripePromotionCodeId) return row;
  const catalogue = provider.catalogue;
  const made = await providerCall(() =>
    catalogue.createPromotion({
      code: row.code,
      percentBasisPoints: row.percentBasisPoints,
      amountOffMinor: row.amountOffMinor,
      currency: row.currency,
      maxRedemptions: row.maxRedemptions,
      expiresAt: row.expiresAt,
      metadata: { twinline_promotion_code_id: row.id },
    }),
  );
  const [saved] = await db
    .update(promotionCodes)
    .set({ stripeCouponId: made.couponId, stripePromotionCodeId: made.promotionCodeId })
    .where(eq(promotionCodes.id, row.id))
    .returning();
  return saved ?? row;
}

/** The discount the provider applies (Stripe's promotion code made when first needed). */
export async function providerDiscount(
  { db }: PromotionsDeps,
  applied: AppliedPromotion,
  provider: PaymentsProvider,
): Promise<CheckoutDiscount> {
  const row = await atProvider(db, applied.row, provider);
  return { amountOffMinor: applied.discountMinor, promotionCodeId: row.stripePromotionCodeId };
}
