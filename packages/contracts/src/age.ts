import { z } from "zod";
import { AGE_RULES, MINORS_NOTICE } from "./constants";

export { AGE_RULES, MINORS_NOTICE } from "./constants";

/** The age gate's words (issue 25, item 4; decision 0054). */
export const AGE_MESSAGES = {
  dateOfBirthRequired: "Please enter your date of birth",
  malformed: "Enter your date of birth as YYYY-MM-DD",
  inFuture: "Date of birth cannot be in the future",
  beforeEarliest: `Date of birth cannot be before ${AGE_RULES.earliestYear}`,
  underAge: (minimumAge: number) =>
    `You must be at least ${minimumAge} years old to create an account.`,
  underAgeToUse: (minimumAge: number) =>
    `You must be at least ${minimumAge} years old to chat or call.`,
  googleNeedsDateOfBirth:
    "To create an account with Google, enter your date of birth in the sign-up form first.",
  askedBeforeUse: "Please enter your date of birth before you chat or call.",
  cannotChange: "Your date of birth cannot be changed. Contact support if it is wrong.",
  alreadyGiven: "Your date of birth is already set. Contact support if it is wrong.",
  minimumAgeTooLow: `Minimum age must be at least ${AGE_RULES.lowestMinimumAge}`,
  minorsNotice: MINORS_NOTICE,
} as const;

/** Machine-readable `error.code` of the answer that asks an existing account for its birth date. */
export const DATE_OF_BIRTH_REQUIRED_CODE = "date_of_birth_required";
/** Machine-readable `error.code` of a refusal for the person's age (sign-up, chat, call). */
export const UNDER_AGE_CODE = "under_age";

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written `YYYY-MM-DD` (2007-02-29 is not one), else null. */
export function parseIsoDate(value: string): CalendarDate | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 02-30 over into March, and maps years 0-99 to 19xx: a real date round-trips.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1) return null;
  if (date.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** Today's date in UTC, `YYYY-MM-DD`. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Whole years from `dateOfBirth` to `today` (both `YYYY-MM-DD`, calendar dates, no time zone).
 * A birthday today counts. Someone born on 29 February has their birthday on 1 March in a year
 * without one: on 28 February they are still a year younger (the stricter reading, for a gate).
 */
export function ageOn(dateOfBirth: string, today: string): number {
  const born = parseIsoDate(dateOfBirth);
  const now = parseIsoDate(today);
  if (!born || !now) throw new Error("ageOn needs two YYYY-MM-DD dates");
  const hadBirthday = now.month > born.month || (now.month === born.month && now.day >= born.day);
  return now.year - born.year - (hadBirthday ? 0 : 1);
}

/**
 * A date of birth as sign-up and the account calls take it: `YYYY-MM-DD`, a real date, from
 * 1900 on and not after today (UTC). Whether it is old enough is the server's to decide.
 */
export const dateOfBirthSchema = z
  .string({ error: AGE_MESSAGES.dateOfBirthRequired })
  .trim()
  .min(1, { error: AGE_MESSAGES.dateOfBirthRequired })
  .superRefine((value, context) => {
    if (!parseIsoDate(value)) {
      context.addIssue({ code: "custom", message: AGE_MESSAGES.malformed });
    } else if (value < `${AGE_RULES.earliestYear}-01-01`) {
      context.addIssue({ code: "custom", message: AGE_MESSAGES.beforeEarliest });
    } else if (value > utcToday()) {
      context.addIssue({ code: "custom", message: AGE_MESSAGES.inFuture });
    }
  });

/** The operator's minimum age: a whole number of years, never below 13. */
export const minimumAgeSchema = z
  .number()
  .int()
  .min(AGE_RULES.lowestMinimumAge, { error: AGE_MESSAGES.minimumAgeTooLow })
  .max(AGE_RULES.highestMinimumAge, {
    error: `Minimum age must be at most ${AGE_RULES.highestMinimumAge}`,
  });

/** PUT /api/users/date-of-birth (only while none is stored) and the admin's correction. */
export const dateOfBirthRequestSchema = z.object({ dateOfBirth: dateOfBirthSchema });
