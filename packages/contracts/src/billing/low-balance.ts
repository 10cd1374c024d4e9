// The low-balance warning (issue 26, item 5): ONE rule, read by the overview, the credits page
// and the sidebar alike.

/** Whether a balance is too low to pay one call minute (settings' creditsPerMinute). */
export const isLowBalance = (credits: number, creditsPerMinute: number): boolean =>
  credits < creditsPerMinute;

export const LOW_BALANCE_TEXT = {
  title: "Low balance",
  body: (credits: number, creditsPerMinute: number) =>
    `You have ${credits.toLocaleString("en-US")} ${credits === 1 ? "credit" : "credits"}: ` +
    `a call minute costs ${creditsPerMinute.toLocaleString("en-US")}.`,
} as const;
