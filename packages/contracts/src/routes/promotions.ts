import {
  checkPromotionCodeResponseSchema,
  checkPromotionCodeSchema,
  createPromotionCodeSchema,
  promotionCodeIdParamsSchema,
  promotionCodeListQuerySchema,
  promotionCodeListResponseSchema,
  promotionCodeSavedResponseSchema,
  updatePromotionCodeSchema,
} from "../billing/promotions";
import { defineRoute } from "./define";

const tags = ["promotion codes"];
const adminErrors = [400, 401, 403, 404, 409, 502];

/**
 * Promotion codes (apps/server/src/modules/billing/promotions, decision 0083): the admin's list,
 * create and disable, and the fan's look at a code before paying.
 */
export const promotionRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/api/admin/promotion-codes",
    access: "admin",
    tags,
    summary: "Promotion codes, newest first, with their uses (paid and held by open checkouts)",
    query: promotionCodeListQuerySchema,
    response: promotionCodeListResponseSchema,
    errors: adminErrors,
  }),
  create: defineRoute({
    method: "POST",
    path: "/api/admin/promotion-codes",
    access: "admin",
    tags,
    summary:
      "Creates a code: percent or amount off, for packages, plans or both, a limit, once per " +
      "fan, an expiry (on Stripe also a coupon and a promotion code)",
    body: createPromotionCodeSchema,
    response: promotionCodeSavedResponseSchema,
    errors: adminErrors,
  }),
  setActive: defineRoute({
    method: "PATCH",
    path: "/api/admin/promotion-codes/:id",
    access: "admin",
    tags,
    summary: "Disables a code (or enables it again); checkouts already open keep their price",
    params: promotionCodeIdParamsSchema,
    body: updatePromotionCodeSchema,
    response: promotionCodeSavedResponseSchema,
    errors: adminErrors,
  }),
  check: defineRoute({
    method: "POST",
    path: "/api/payments/promotion-codes/check",
    access: "fan",
    tags: ["payments"],
    summary:
      "What a promotion code makes of a package's or a plan's price (400 naming " +
      "promotionCode: unknown, expired, used up, wrong product, already used by this fan)",
    body: checkPromotionCodeSchema,
    response: checkPromotionCodeResponseSchema,
    errors: [400, 401, 404],
  }),
} as const;
