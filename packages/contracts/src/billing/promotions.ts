import { z } from "zod";
import { pagedListResponse, pageQueryFields } from "../paged-list";
import { idParam, savedResponse } from "./fields";
import { currencySchema } from "./shared";

// Promotion codes (issue 27 item 4; docs/decisions/0083): the admin's codes and the code a fan
// gives at checkout. Money in major units here, minor units in the database.

/** What a code takes off: a percentage of the price, or a fixed amount in one currency. */
export const PROMOTION_KINDS = ["percent", "amount"] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];
/** What a code may be used for. */
export const PROMOTION_APPLIES_TO = ["packages", "plans", "both"] as const;
export type PromotionAppliesTo = (typeof PROMOTION_APPLIES_TO)[number];

export const PROMOTION_MESSAGES = {
  unknown: "This promotion code does not exist",
  inactive: "This promotion code is no longer active",
  expired: "This promotion code has expired",
  usedUp: "This promotion code has been used up",
  wrongProduct: "This promotion code does not apply to this purchase",
  wrongCurrency: "This promotion code is for another currency",
  alreadyUsed: "You have already used this promotion code",
  zeroTotal: "This promotion code cannot bring the price to zero",
  notWithTrial: "This plan starts with a free trial: a promotion code cannot be added to it",
  duplicate: "A promotion code with this code already exists",
  notFound: "Promotion code not found",
  created: "Promotion code created",
  disabled: "Promotion code disabled",
  enabled: "Promotion code enabled",
} as const;

/** A code as the fan types it: letters, digits, - and _, compared without case. */
export const promotionCodeText = z
  .string({ error: "Promotion code must be text" })
  .trim()
  .min(3, { error: "Promotion code must be at least 3 characters" })
  .max(32, { error: "Promotion code must be at most 32 characters" })
  .regex(/^[A-Za-z0-9_-]+$/, {
    error: "Promotion code may contain only letters, digits, - and _",
  })
  .transform((value) => value.toUpperCase());

/** The checkout's optional code: blank means none. */
export const checkoutPromotionCodeField = z
  .union([z.literal(""), promotionCodeText])
  .optional()
  .transform((value) => (value ? value : undefined));

/** POST /api/admin/promotion-codes. */
export const createPromotionCodeSchema = z
  .object({
    code: promotionCodeText,
    kind: z.enum(PROMOTION_KINDS, { error: "Kind must be percent or amount" }),
    /** percent: 0.01 to 99.99 (two decimals). */
    percentOff: z.coerce
      .number({ error: "Percent off must be a number" })
      .gt(0, { error: "Percent off must be greater than 0" })
      .lt(100, { error: "Percent off must be less than 100" })
      .nullish(),
    /** amount: major units in `currency`. */
    amountOff: z.coerce
      .number({ error: "Amount off must be a number" })
      .min(0.01, { error: "Amount off must be at least 0.01" })
      .max(999_999.99, { error: "Amount off must be at most 999999.99" })
      .nullish(),
    currency: currencySchema.nullish(),
    appliesTo: z.enum(PROMOTION_APPLIES_TO, {
      error: "Applies to must be packages, plans or both",
    }),
    /** Null or absent: no limit. */
    maxRedemptions: z.coerce
      .number({ error: "Maximum redemptions must be a number" })
      .int({ error: "Maximum redemptions must be a whole number" })
      .min(1, { error: "Maximum redemptions must be at least 1" })
      .max(1_000_000, { error: "Maximum redemptions must be at most 1000000" })
      .nullish(),
    expiresAt: z.iso.datetime({ offset: true, error: "Expiry must be a date and time" }),
  })
  .superRefine((value, context) => {
    if (value.kind === "percent" && value.percentOff == null) {
      context.addIssue({
        code: "custom",
        path: ["percentOff"],
        message: "Percent off is required",
      });
    }
    if (value.kind === "amount") {
      if (value.amountOff == null) {
        context.addIssue({
          code: "custom",
          path: ["amountOff"],
          message: "Amount off is required",
        });
      }
      if (value.currency == null) {
        context.addIssue({
          code: "custom",
          path: ["currency"],
          message: "Currency is required for an amount off",
        });
      }
    }
    if (Date.parse(value.expiresAt) <= Date.now()) {
      context.addIssue({
        code: "custom",
        path: ["expiresAt"],
        message: "Expiry must be in the future",
      });
    }
  });
export type CreatePromotionCodeRequest = z.input<typeof createPromotionCodeSchema>;

/** PATCH /api/admin/promotion-codes/{id}: disable (or enable again). */
export const updatePromotionCodeSchema = z.object({
  isActive: z.boolean({ error: "isActive must be true or false" }),
});
export const promotionCodeIdParamsSchema = z.object({ id: idParam("promotion code") });

export const promotionCodeSchema = z.object({
  _id: z.string(),
  code: z.string(),
  kind: z.enum(PROMOTION_KINDS),
  percentOff: z.number().nullable(),
  amountOff: z.number().nullable(),
  currency: currencySchema.nullable(),
  appliesTo: z.enum(PROMOTION_APPLIES_TO),
  maxRedemptions: z.number().int().nullable(),
  /** Paid checkouts with the code, and checkouts still open that hold a use of it. */
  redemptions: z.number().int(),
  expiresAt: z.string(),
  isActive: z.boolean(),
  stripePromotionCodeId: z.string().nullable(),
  createdAt: z.string(),
});
export type PromotionCode = z.infer<typeof promotionCodeSchema>;

export const promotionCodeListQuerySchema = z.object({
  ...pageQueryFields({ limit: 20, maxLimit: 100 }),
});
export const promotionCodeListResponseSchema = pagedListResponse(promotionCodeSchema);
export type PromotionCodeListResponse = z.infer<typeof promotionCodeListResponseSchema>;
export const promotionCodeSavedResponseSchema = savedResponse(promotionCodeSchema);

/** POST /api/payments/promotion-codes/check: what the code makes of a purchase, before paying. */
export const checkPromotionCodeSchema = z
  .object({
    code: promotionCodeText,
    packageId: idParam("package").optional(),
    planId: idParam("plan").optional(),
  })
  .refine((value) => Boolean(value.packageId) !== Boolean(value.planId), {
    error: "Give a package or a plan",
    path: ["packageId"],
  });
export const checkPromotionCodeResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    code: z.string(),
    /** Major units: the price before the code, what it takes off, what is paid. */
    amountBeforeDiscount: z.number(),
    discount: z.number(),
    amount: z.number(),
    currency: currencySchema,
  }),
});
export type CheckPromotionCodeResponse = z.infer<typeof checkPromotionCodeResponseSchema>;
