import { PROMOTION_MESSAGES, routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { discountedMinor, toMajor } from "../../../lib/money.ts";
import { currentUser } from "../../../plugins/auth.ts";
import { registerRoute } from "../../../plugins/routes.ts";
import { auditActorOf } from "../../audit/in-transaction.ts";
import { auditNote } from "../../audit/plugin.ts";
import type { CatalogueService } from "../catalogue/catalogue-service.ts";
import type { PromotionsService } from "./promotions-service.ts";

/**
 * The admin's promotion codes (issue 27 item 4; docs/decisions/0083), guarded for admins by their
 * definitions (routes.promotions); each write records its audit entry in its own transaction.
 */
export const adminPromotionRoutes: FastifyPluginAsync<{
  promotions: PromotionsService;
}> = async (app, { promotions }) => {
  registerRoute(app, routes.promotions.list, async (request) => ({
    success: true as const,
    ...(await promotions.list(request.query)),
  }));

  registerRoute(app, routes.promotions.create, async (request) => {
    auditNote(request, { recorded: true });
    const data = await promotions.create(auditActorOf(request), request.body);
    return { success: true as const, message: PROMOTION_MESSAGES.created, data };
  });

  registerRoute(app, routes.promotions.setActive, async (request) => {
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
  });
};

/** The fan's look at a code before paying: what the purchase costs with it. */
export const promotionCheckRoutes: FastifyPluginAsync<{
  promotions: PromotionsService;
  catalogue: CatalogueService;
}> = async (app, { promotions, catalogue }) => {
  registerRoute(app, routes.promotions.check, async (request) => {
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
  });
};
