import { z } from "zod";
import type { Currency, PlanInterval } from "./shared";

// Consent at checkout (issue 26, item 3; docs/decisions/0064). The texts live here, with their
// version, so the page shows and the server stores the same words: the server renders the text
// again from the plan or package it charges (never the client's text) and checks that the box
// the fan ticked was of this version.

/**
 * The version of each consent text. A change of a text's words gets a new version: a checkout
 * whose box was ticked under another version is refused, and the stored consent names its own.
 */
export const CONSENT_VERSIONS = {
  // 2026-11-27: a plan with a free trial for this fan says when the card is first charged
  // (decision 0083); the text without a trial is unchanged, the version names the template.
  plan: "plan-renewal-2026-11-27",
  credits: "credits-delivery-2026-11-26",
} as const;
export type ConsentKind = keyof typeof CONSENT_VERSIONS;
/** The kinds a checkout asks consent for, in the order the database enum lists them. */
export const CONSENT_KINDS = ["plan", "credits"] as const satisfies readonly ConsentKind[];

export const CONSENT_MESSAGES = {
  required: "Tick the box to agree to these terms before you pay",
  stale: "These terms have changed: read them again and tick the box",
} as const;

/** The checkout requests' field: the version of the consent text whose box the fan ticked. */
export const consentVersionField = z
  .string({ error: CONSENT_MESSAGES.required })
  .min(1, { error: CONSENT_MESSAGES.required })
  .max(100, { error: CONSENT_MESSAGES.stale });

const moneyFormats = new Map<string, Intl.NumberFormat>();
/** "$9.99" (en-US), as the web shows money: the same words on the page and in the record. */
function consentMoney(amount: number, currency: Currency): string {
  const code = currency.toUpperCase();
  let format = moneyFormats.get(code);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency: code });
    moneyFormats.set(code, format);
  }
  return format.format(amount);
}

/** "month", "3 months", "year". */
export function billingPeriodText(interval: PlanInterval, intervalCount: number): string {
  return intervalCount === 1 ? interval : `${intervalCount} ${interval}s`;
}

const DAY_MS = 86_400_000;
/**
 * "Dec 4, 2026 (UTC)": the page and the server render the same words wherever the fan is, and
 * the zone is said, so a fan west of UTC is not misled about which of their days it is.
 */
const consentDate = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** A plan's free trial as its checkout offers it: its days, and when it ends (first charge). */
export interface PlanTrialTerms {
  days: number;
  endsAt: Date;
}

/** The trial a checkout started at `now` gets: `days` days on, when the first charge is made. */
export function planTrialTerms(days: number, now: number | Date): PlanTrialTerms {
  const start = now instanceof Date ? now.getTime() : now;
  return { days, endsAt: new Date(start + days * DAY_MS) };
}

/** "7-day free trial", "1-day free trial". */
export function trialLabel(days: number): string {
  return `${days}-day free trial`;
}

/**
 * The renewal terms a plan's checkout shows beside its unticked box:
 * "$9.99 charged every month until you cancel; cancel any time in your dashboard."
 * With a free trial this fan gets (decision 0083), the first charge is said with its date:
 * "7-day free trial, then $9.99 charged every month until you cancel. Your card is charged
 * $9.99 automatically when the trial ends on Dec 4, 2026 (UTC) unless you cancel before then;
 * cancel any time in your dashboard."
 */
export function planConsentText(
  plan: {
    price: number;
    currency: Currency;
    interval: PlanInterval;
    intervalCount: number;
  },
  trial?: PlanTrialTerms | null,
): string {
  const price = consentMoney(plan.price, plan.currency);
  const renewal = `${price} charged every ${billingPeriodText(plan.interval, plan.intervalCount)}`;
  if (trial && trial.days > 0) {
    return (
      `${trialLabel(trial.days)}, then ${renewal} until you cancel. Your card is charged ` +
      `${price} automatically when the trial ends on ${consentDate.format(trial.endsAt)} (UTC) ` +
      "unless you cancel before then; cancel any time in your dashboard."
    );
  }
  return `${renewal} until you cancel; cancel any time in your dashboard.`;
}

/** What a credit package's checkout asks consent to: delivery now, the withdrawal right. */
export function creditsConsentText(pack: {
  credits: number;
  price: number;
  currency: Currency;
}): string {
  return (
    `I want my ${pack.credits.toLocaleString("en-US")} credits (` +
    `${consentMoney(pack.price, pack.currency)}) delivered immediately, and I acknowledge that ` +
    "I lose my right of withdrawal for the credits I use."
  );
}

/** A consent as the admin's transaction details show it (the words exactly as shown). */
export const checkoutConsentSchema = z.object({
  _id: z.string(),
  kind: z.enum(CONSENT_KINDS),
  version: z.string(),
  text: z.string(),
  packageId: z.string().nullable(),
  planId: z.string().nullable(),
  /** The price the text named, major units. */
  price: z.number(),
  currency: z.string(),
  /** The address the checkout was asked from. */
  ipAddress: z.string(),
  acceptedAt: z.string(),
});
export type CheckoutConsent = z.infer<typeof checkoutConsentSchema>;
