import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  type CreatePromotionCodeRequest,
  promotionCodeListResponseSchema,
  promotionCodeSavedResponseSchema,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";

// The admin's promotion codes (issue 27 item 4; docs/decisions/0083).

export const PROMOTIONS_PAGE_SIZE = 20;
export const promotionKeys = { all: ["admin", "billing", "promotion-codes"] as const };

/** GET /api/admin/promotion-codes: newest first, with their uses. */
export const promotionCodesQuery = (page: number) =>
  queryOptions({
    queryKey: [...promotionKeys.all, page] as const,
    queryFn: ({ signal }) =>
      api.get("/api/admin/promotion-codes", {
        signal,
        query: { page: String(page), limit: String(PROMOTIONS_PAGE_SIZE) },
        schema: promotionCodeListResponseSchema,
      }),
    placeholderData: keepPreviousData,
  });

export const createPromotionCode = (form: CreatePromotionCodeRequest) =>
  api.post("/api/admin/promotion-codes", form, { schema: promotionCodeSavedResponseSchema });

export const setPromotionCodeActive = (id: string, isActive: boolean) =>
  api.patch(
    `/api/admin/promotion-codes/${encodeURIComponent(id)}`,
    { isActive },
    { schema: promotionCodeSavedResponseSchema },
  );
