import { z } from "zod";
import { CRISIS_CATEGORIES, CRISIS_SOURCES } from "./crisis-constants";
import { safeText } from "./text";

export * from "./crisis-constants";

// The crisis protocol (issue 25, item 2; docs/decisions/0060-crisis-protocol.md).

/** One crisis line the operator lists: where it serves, whom to call or text, where to read. */
export const crisisResourceSchema = z.object({
  /**
   * ISO 3166-1 alpha-2 codes of the countries it serves ("US"; "GB IE" for several), or "INT"
   * for a resource that serves everyone (shown in every country).
   */
  country: safeText()
    .trim()
    .toUpperCase()
    .regex(/^(?:INT|[A-Z]{2}(?:[ ,]+[A-Z]{2})*)$/, {
      error: "Country must be two-letter country codes (US, GB IE) or INT",
    }),
  name: safeText()
    .trim()
    .min(1, { error: "Resource name is required" })
    .max(120, { error: "Resource name is at most 120 characters" }),
  /** A number to call or text ("Call or text 988"); empty for a web-only resource. */
  contact: safeText().trim().max(120, { error: "Phone or text is at most 120 characters" }),
  url: safeText()
    .trim()
    .max(500)
    .refine((value) => value === "" || /^https:\/\/\S+$/i.test(value), {
      error: "Resource link must be a full URL starting with https://",
    }),
});

export const crisisResourcesSchema = z
  .array(crisisResourceSchema)
  .min(1, { error: "List at least one crisis resource" })
  .max(50, { error: "At most 50 crisis resources" });

/** A message the crisis check flagged, as the admin's chat logs mark it. */
export const messageFlagSchema = z.object({
  category: z.enum(CRISIS_CATEGORIES),
  source: z.enum(CRISIS_SOURCES),
});
export type MessageFlag = z.infer<typeof messageFlagSchema>;

/** Carried by a send's answer when the crisis message replaced the reply. */
export const crisisSupportSchema = z.object({ resources: z.array(crisisResourceSchema) });
export type CrisisSupport = z.infer<typeof crisisSupportSchema>;

/** One UTC day's crisis referrals: a count and nothing about anyone. */
export const crisisReferralDaySchema = z.object({
  date: z.string(),
  referrals: z.number().int(),
});
export type CrisisReferralDay = z.infer<typeof crisisReferralDaySchema>;

export const crisisReferralsQuerySchema = z.object({
  days: z.coerce
    .number({ error: "days must be a number" })
    .int({ error: "days must be a whole number" })
    .min(1, { error: "days must be between 1 and 366" })
    .max(366, { error: "days must be between 1 and 366" })
    .default(30),
});

export const crisisReferralsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ total: z.number().int(), days: z.array(crisisReferralDaySchema) }),
});

export const CRISIS_REFERRALS_CSV_HEADER = ["Date (UTC)", "Crisis referrals"] as const;
