import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { type CreatePromotionCodeRequest, routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api";

// The admin's promotion codes (issue 27 item 4; docs/decisions/0083).

export const PROMOTIONS_PAGE_SIZE = 20;
export const promotionKeys = { all: ["admin", "billing", "promotion-codes"] as const };

/** Newest first, with their uses. */
export const promotionCodesQuery = (page: number) =>
  queryOptions({
    queryKey: [...promotionKeys.all, page] as const,
    queryFn: ({ signal }) =>
      callRoute(routes.promotions.list, {
        signal,
        query: { page: String(page), limit: String(PROMOTIONS_PAGE_SIZE) },
      }),
    placeholderData: keepPreviousData,
  });

export const createPromotionCode = (form: CreatePromotionCodeRequest) =>
  callRoute(routes.promotions.create, { body: form });

export const setPromotionCodeActive = (id: string, isActive: boolean) =>
  callRoute(routes.promotions.setActive, { params: { id }, body: { isActive } });
