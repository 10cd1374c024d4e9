import {
  BILLING_MESSAGES,
  type CreditPackageCreate,
  type CreditPackageUpdate,
  type SubscriptionPlanCreate,
  type SubscriptionPlanUpdate,
} from "@twinline/contracts";
import type { SubscriptionPlanRow } from "../../../db/schema/index.ts";
import { toBasisPoints, toMinor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { NewCreditPackage, NewSubscriptionPlan } from "./catalogue-repository.ts";

// What an admin's form becomes in a row: money in minor units, a discount in basis points, and
// on an edit only the fields the form sent (an edit that leaves one out keeps it).

export const newPackageRow = (id: string, input: CreditPackageCreate): NewCreditPackage => ({
  id,
  name: input.name,
  description: input.description,
  credits: input.credits,
  priceMinor: toMinor(input.price),
  currency: input.currency,
  discountBasisPoints: toBasisPoints(input.discount),
  isActive: input.isActive,
});

export const packageChanges = (input: CreditPackageUpdate): Partial<NewCreditPackage> => ({
  name: input.name,
  ...(input.description !== undefined ? { description: input.description } : {}),
  ...(input.credits !== undefined ? { credits: input.credits } : {}),
  ...(input.price !== undefined ? { priceMinor: toMinor(input.price) } : {}),
  ...(input.currency !== undefined ? { currency: input.currency } : {}),
  ...(input.discount !== undefined ? { discountBasisPoints: toBasisPoints(input.discount) } : {}),
  ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
});

export const newPlanRow = (id: string, input: SubscriptionPlanCreate): NewSubscriptionPlan => ({
  id,
  name: input.name,
  description: input.description,
  priceMinor: toMinor(input.price),
  currency: input.currency,
  interval: input.interval,
  intervalCount: input.intervalCount,
  features: input.features,
  isActive: input.isActive,
  credits: input.credits,
  trialDays: input.trialDays,
});

/** A plan's edit; its billing period is fixed once created (400 when the edit would move it). */
export function planChanges(
  current: Pick<SubscriptionPlanRow, "interval" | "intervalCount">,
  input: SubscriptionPlanUpdate,
): Partial<NewSubscriptionPlan> {
  if (
    (input.interval !== undefined && input.interval !== current.interval) ||
    (input.intervalCount !== undefined && input.intervalCount !== current.intervalCount)
  ) {
    throw new HttpError(400, BILLING_MESSAGES.intervalFixed);
  }
  return {
    name: input.name,
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.price !== undefined ? { priceMinor: toMinor(input.price) } : {}),
    ...(input.currency !== undefined ? { currency: input.currency } : {}),
    ...(input.features !== undefined ? { features: input.features } : {}),
    ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
    ...(input.credits !== undefined ? { credits: input.credits } : {}),
    ...(input.trialDays !== undefined ? { trialDays: input.trialDays } : {}),
  };
}
