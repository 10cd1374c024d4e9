import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import { invalidRequest, notFound } from "./errors.ts";
import type { Json } from "./json.ts";
import { StripeObjects } from "./store.ts";

/** Coupons (percent_off or amount_off, duration once) and the promotion codes on them. */
export async function createCoupon(deps: EmulatorDeps, body: Json): Promise<Json> {
  const coupon: Json = {
    id: deps.newId("coupon"),
    object: "coupon",
    name: body.name ?? null,
    duration: body.duration ?? "once",
    percent_off: body.percent_off !== undefined ? Number(body.percent_off) : null,
    amount_off: body.amount_off !== undefined ? Number(body.amount_off) : null,
    currency: body.currency ?? null,
    valid: true,
    metadata: body.metadata ?? {},
    created: deps.clock.now(),
  };
  if ((coupon.percent_off === null) === (coupon.amount_off === null)) {
    throw invalidRequest("A coupon needs exactly one of percent_off and amount_off");
  }
  await save(deps, coupon);
  return coupon;
}

export const retrieveCoupon = (deps: EmulatorDeps, couponId: string) =>
  mustGet(deps, couponId, "coupon");

export async function createPromotionCode(deps: EmulatorDeps, body: Json): Promise<Json> {
  const promotion = (body.promotion as Json | undefined) ?? {};
  const coupon = await deps.store.get(String(promotion.coupon));
  if (coupon?.object !== "coupon") throw notFound("coupon", String(promotion.coupon));
  const existing = await deps.store.list(StripeObjects.promotionCode);
  if (existing.some((each) => each.active && each.code === body.code)) {
    throw invalidRequest("An active promotion code with `code` already exists.");
  }
  const promotionCode: Json = {
    id: deps.newId("promo"),
    object: "promotion_code",
    code: body.code,
    promotion: { type: "coupon", coupon: coupon.id },
    active: true,
    expires_at: body.expires_at !== undefined ? Number(body.expires_at) : null,
    max_redemptions: body.max_redemptions !== undefined ? Number(body.max_redemptions) : null,
    times_redeemed: 0,
    metadata: body.metadata ?? {},
    created: deps.clock.now(),
  };
  await save(deps, promotionCode);
  return promotionCode;
}

export const retrievePromotionCode = (deps: EmulatorDeps, promotionCodeId: string) =>
  mustGet(deps, promotionCodeId, "promotion_code");

export async function updatePromotionCode(deps: EmulatorDeps, promotionCodeId: string, body: Json) {
  const promotionCode = await mustGet(deps, promotionCodeId, "promotion_code");
  if (body.active !== undefined) {
    promotionCode.active = body.active === "true";
    await save(deps, promotionCode);
  }
  return promotionCode;
}

/**
 * Why a promotion code cannot be applied to a price now, in Stripe's words; null when it can.
 */
export function promotionRefusal(
  promotionCode: Json,
  coupon: Json,
  priceCurrency: unknown,
  now: number,
): string | null {
  if (!promotionCode.active) return "This promotion code is inactive.";
  if (promotionCode.expires_at !== null && Number(promotionCode.expires_at) <= now) {
    return "This promotion code has expired.";
  }
  if (
    promotionCode.max_redemptions !== null &&
    Number(promotionCode.times_redeemed) >= Number(promotionCode.max_redemptions)
  ) {
    return "This promotion code has reached its maximum number of redemptions.";
  }
  if (coupon.currency !== null && coupon.currency !== priceCurrency) {
    return "This promotion code's currency does not match the price's.";
  }
  return null;
}

/** A redemption counted when the checkout that applied the code is paid. */
export async function redeemPromotionCode(deps: EmulatorDeps, promotionCodeId: string) {
  const promotionCode = await deps.store.get(promotionCodeId);
  if (!promotionCode) return;
  promotionCode.times_redeemed = Number(promotionCode.times_redeemed) + 1;
  await save(deps, promotionCode);
}
