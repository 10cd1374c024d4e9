import {
  AGE_MESSAGES,
  ageOn,
  DATE_OF_BIRTH_REQUIRED_CODE,
  UNDER_AGE_CODE,
  utcToday,
} from "@twinline/contracts";
import { HttpError } from "../plugins/errors.ts";

/** Whether a date of birth is under the minimum age today (UTC). */
export function isUnderAge(dateOfBirth: string, minimumAge: number, now: Date = new Date()) {
  return ageOn(dateOfBirth, utcToday(now)) < minimumAge;
}

/**
 * Why an account may not chat or call for its age (issue 25; decision 0054), or null when it
 * may. An account made before sign-up asked has no date of birth: 428 until it gives one. One
 * whose date is under the operator's minimum age (given late, corrected by the admin, or the
 * minimum raised since) is refused with 403.
 */
export function ageRefusal(
  dateOfBirth: string | null,
  minimumAge: number,
  now: Date = new Date(),
): HttpError | null {
  if (!dateOfBirth) {
    return new HttpError(428, AGE_MESSAGES.askedBeforeUse, { code: DATE_OF_BIRTH_REQUIRED_CODE });
  }
  if (isUnderAge(dateOfBirth, minimumAge, now)) {
    return new HttpError(403, AGE_MESSAGES.underAgeToUse(minimumAge), { code: UNDER_AGE_CODE });
  }
  return null;
}
