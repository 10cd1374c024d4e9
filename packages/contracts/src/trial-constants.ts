/** The constants of the anonymous trial without zod (the landing page reads them). */
export const MAX_ANONYMOUS_MESSAGES = 50;
