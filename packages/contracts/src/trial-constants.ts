/** The constants of the anonymous trial without zod (the landing page and its API client read them). */
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

/**
 * The trial's device as a header, for the embed frame on another site where the device cookie
 * is not kept (decision 0089). A request carrying it is read by it alone (never the cookie): a
 * signed id names the device, anything else (e.g. `new`) none; POST /api/trial/message answers
 * the device's signed id in the same header. The sign-in calls read it for the hand-over.
 */
export const TRIAL_DEVICE_HEADER = "x-twinline-trial-device";
/** What a header-carrying client sends before it has a device. */
export const TRIAL_DEVICE_NONE = "new";
/** Longer header values are no device (a signed id is about 70 characters). */
export const TRIAL_DEVICE_MAX_LENGTH = 200;
