import {
  checkPromotionCodeResponseSchema,
  checkPromotionCodeSchema,
  createPromotionCodeSchema,
  PROMOTION_MESSAGES,
  promotionCodeIdParamsSchema,
  promotionCodeListQuerySchema,
  promotionCodeListResponseSchema,
  promotionCodeSavedResponseSchema,
  updatePromotionCodeSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { discountedMinor, toMajor } from "../../../lib/money.ts";
import { currentUser } from "../../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../../plugins/openapi.ts";
import { auditActorOf } from "../../audit/in-transaction.ts";
import { auditNote } from "../../audit/plugin.ts";
import type { CatalogueService } from "../catalogue/catalogue-service.ts";
import type { PromotionsService } from "./promotions-service.ts";

const security = bearerSecurity;
const tags = ["promotion codes"];

/**
 * The admin's promotion codes (issue 27 item 4; docs/decisions/0083). In the billing module's
 * admin-guarded scope; each write records its audit entry in its own transaction.
 */
export const adminPromotionRoutes: FastifyPluginAsyncZod<{
  promotions: PromotionsService;
}> = async (app, { promotions }) => {
  const errors = errorResponses(400, 401, 403, 404, 409, 502);

  app.get(
    "/api/admin/promotion-codes",
    {
      schema: {
        tags,
        security,
        summary: "Promotion codes, newest first, with their uses (paid and held by open checkouts)",
        querystring: promotionCodeListQuerySchema,
        response: { 200: promotionCodeListResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await promotions.list(request.query)) }),
  );

  app.post(
    "/api/admin/promotion-codes",
    {
      schema: {
        tags,
        security,
        summary:
          "Creates a code: percent or amount off, for packages, plans or both, a limit, once per " +
          "fan, an expiry (on Stripe also a coupon and a promotion code)",
        body: createPromotionCodeSchema,
        response: { 200: promotionCodeSavedResponseSchema, ...errors },
      },
    },
    async (request) => {
      auditNote(request, { recorded: true });
      const data = await promotions.create(auditActorOf(request), request.body);
      return { success: true as const, message: PROMOTION_MESSAGES.created, data };
    },
  );

  app.patch(
    "/api/admin/promotion-codes/:id",
    {
      schema: {
        tags,
        security,
        summary: "Disables a code (or enables it again); checkouts already open keep their price",
        params: promotionCodeIdParamsSchema,
        body: updatePromotionCodeSchema,
        response: { 200: promotionCodeSavedResponseSchema, ...errors },
      },
    },
    async (request) => {
      auditNote(request, { recorded: true });
      const data = await promotions.setActive(
        auditActorOf(request),
        request.params.id,
        request.body.isActive,
      );
      return {
        success: true as const,
        message: data.isActive ? PROMOTION_MESSAGES.enabled : PROMOTION_MESSAGES.disabled,
        data,
      };
    },
  );
};

/** The fan's look at a code before paying: what the purchase costs with it. */
export const promotionCheckRoutes: FastifyPluginAsyncZod<{
  promotions: PromotionsService;
  catalogue: CatalogueService;
}> = async (app, { promotions, catalogue }) => {
  app.addHook("onRequest", app.requireUser);
  app.post(
    "/api/payments/promotion-codes/check",
    {
      schema: {
        tags: ["payments"],
        security,
        summary:
          "What a promotion code makes of a package's or a plan's price (400 naming " +
          "promotionCode: unknown, expired, used up, wrong product, already used by this fan)",
        body: checkPromotionCodeSchema,
        response: { 200: checkPromotionCodeResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { code, packageId, planId } = request.body;
      const target = packageId
        ? await catalogue.packageForCheckout(packageId).then((pack) => ({
            kind: "package" as const,
            amountMinor: discountedMinor(pack.priceMinor, pack.discountBasisPoints),
            currency: pack.currency,
          }))
        : await catalogue.planForCheckout(String(planId)).then((plan) => ({
            kind: "plan" as const,
            amountMinor: plan.priceMinor,
            currency: plan.currency,
          }));
      const applied = await promotions.preview(user.id, code, target);
      return {
        success: true as const,
        data: {
          code: applied.row.code,
          amountBeforeDiscount: toMajor(target.amountMinor),
          discount: toMajor(applied.discountMinor),
          amount: toMajor(target.amountMinor - applied.discountMinor),
          currency: target.currency,
        },
      };
    },
  );
};
