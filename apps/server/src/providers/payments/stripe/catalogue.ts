// Stripe's products, prices and promotion codes (PaymentsCatalogue): what sync-stripe and the
// admin's catalogue write.
import type { PaymentsCatalogue, PromotionInput, ProviderProduct } from "../types.ts";
import { call, orNull, type StripeDeps } from "./client.ts";
import { toPrice, toProduct } from "./mappers.ts";

type ProductInput = Parameters<PaymentsCatalogue["createProduct"]>[0];
type ProductChanges = Parameters<PaymentsCatalogue["updateProduct"]>[1];
type PriceInput = Parameters<PaymentsCatalogue["createPrice"]>[0];

/** The metadata key that marks products made by this app (sync-stripe lists them). */
export const PRODUCT_KIND_KEY = "twinline_kind";

export const createProduct = (deps: StripeDeps, input: ProductInput) =>
  call(deps, async (client) =>
    toProduct(
      await client.products.create({
        name: input.name,
        ...(input.description ? { description: input.description } : {}),
        metadata: input.metadata,
      }),
    ),
  );

export const updateProduct = (deps: StripeDeps, productId: string, changes: ProductChanges) =>
  call(deps, async (client) =>
    toProduct(
      await client.products.update(productId, {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        // Stripe refuses an empty description: "" clears it.
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.active !== undefined ? { active: changes.active } : {}),
      }),
    ),
  );

export const retrieveProduct = (deps: StripeDeps, productId: string) =>
  orNull(deps, async (client) => toProduct(await client.products.retrieve(productId)));

/** The products this app made (those marked with PRODUCT_KIND_KEY). */
export const listProducts = (deps: StripeDeps) =>
  call(deps, async (client) => {
    const found: ProviderProduct[] = [];
    for await (const product of client.products.list({ limit: 100 })) {
      if (product.metadata?.[PRODUCT_KIND_KEY]) found.push(toProduct(product));
    }
    return found;
  });

export const createPrice = (deps: StripeDeps, input: PriceInput) =>
  call(deps, async (client) =>
    toPrice(
      await client.prices.create({
        product: input.productId,
        unit_amount: input.amountMinor,
        currency: input.currency,
        metadata: input.metadata,
        ...(input.recurring
          ? {
              recurring: {
                interval: input.recurring.interval,
                interval_count: input.recurring.intervalCount,
              },
            }
          : {}),
      }),
    ),
  );

export const retrievePrice = (deps: StripeDeps, priceId: string) =>
  orNull(deps, async (client) => toPrice(await client.prices.retrieve(priceId)));

export const deactivatePrice = (deps: StripeDeps, priceId: string) =>
  call(deps, async (client) => {
    await client.prices.update(priceId, { active: false });
  });

/** A one-use coupon and the promotion code buyers type for it. */
export const createPromotion = (deps: StripeDeps, input: PromotionInput) =>
  call(deps, async (client) => {
    const coupon = await client.coupons.create({
      name: input.code,
      // The first payment only (a package's, or a plan's first period): decision 0083.
      duration: "once",
      ...(input.percentBasisPoints !== null
        ? { percent_off: input.percentBasisPoints / 100 }
        : { amount_off: input.amountOffMinor ?? 0, currency: input.currency ?? "usd" }),
      metadata: input.metadata,
    });
    const promotionCode = await client.promotionCodes.create({
      promotion: { type: "coupon", coupon: coupon.id },
      code: input.code,
      expires_at: Math.floor(input.expiresAt.getTime() / 1000),
      ...(input.maxRedemptions !== null ? { max_redemptions: input.maxRedemptions } : {}),
      metadata: input.metadata,
    });
    return { couponId: coupon.id, promotionCodeId: promotionCode.id };
  });

export const setPromotionCodeActive = (
  deps: StripeDeps,
  promotionCodeId: string,
  active: boolean,
) =>
  call(deps, async (client) => {
    await client.promotionCodes.update(promotionCodeId, { active });
  });
