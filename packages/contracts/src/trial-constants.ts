/** The constants of the anonymous trial without zod (the landing page reads them). */
export const MAX_ANONYMOUS_MESSAGES = 50;

/**
 * The bounds of the operator's two daily caps on anonymous messages (decision 0084): per client
 * address (default 30) and for the whole site (default 1 000). At least 1 each: 0 turning the
 * trial off is `anonymousMessages`' job.
 */
export const TRIAL_CAP_LIMITS = {
  perAddressPerDay: { min: 1, max: 1_000 },
  perDay: { min: 1, max: 100_000 },
} as const;
