import { z } from "zod";
import { isSafeText } from "../text";
import { BILLING_MESSAGES } from "./shared";

// Text safety: no NUL byte, no lone surrogate (PostgreSQL refuses them with an error).

/** Text that PostgreSQL can store: refused (400) with a NUL byte or a lone surrogate. */
export const storableText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .max(max, { error: `${field} must be at most ${max} characters` })
    .refine(isSafeText, { error: `${field} contains characters that are not allowed` });

/** A money amount in major units, 0 or more, at most 2 decimals' worth (rounded to cents). */
export const money = (defaultValue: number) =>
  z.coerce
    .number({ error: BILLING_MESSAGES.priceNotNegative })
    .refine(Number.isFinite, { error: "Price must be a number" })
    .min(0, { error: BILLING_MESSAGES.priceNotNegative })
    .max(999_999.99, { error: "Price must be at most 999999.99" })
    .default(defaultValue);

/** The update forms send the Stripe ids back, read-only; they are ignored. */
export const readOnlyStripeIds = {
  stripeProductId: z.string().nullish(),
  stripePriceId: z.string().nullish(),
};

/** The answer of a create, an update or a toggle: the saved row and what happened. */
export const savedResponse = <Item extends z.ZodType>(item: Item) =>
  z.object({
    success: z.literal(true),
    message: z.string().optional(),
    data: item,
  });

export const idParam = (what: string) => z.uuid({ error: `Invalid ${what} id` });

export const billingIdParamsSchema = z.object({ id: idParam("record") });
export const packageIdParamsSchema = z.object({ id: idParam("package") });
export const planIdParamsSchema = z.object({ id: idParam("plan") });
