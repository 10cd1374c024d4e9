// A plan's free trial (issue 27, decision 0083): ONE rule, read by the checkout on the server and
// by the plan cards and the checkout dialog on the web.

/**
 * The free trial days a checkout of a plan gives a fan: the plan's, but only to a fan who never
 * had a subscription (one trial per fan, ever).
 */
export const trialDaysOffered = (planTrialDays: number, hadSubscription: boolean): number =>
  planTrialDays > 0 && !hadSubscription ? planTrialDays : 0;
