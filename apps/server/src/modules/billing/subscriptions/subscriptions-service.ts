import { bindFirst } from "../../../lib/bind-first.ts";
import { upgrade } from "./plan-change.ts";
import { analytics } from "./subscription-analytics.ts";
import { cancel, cancelAllNow, cancelNow, resume, resumeOwn } from "./subscription-cancel.ts";
import type {
  PlanChangeProbe,
  SubscriptionsDeps,
  SubscriptionsServiceOptions,
} from "./subscriptions-deps.ts";

export type { PlanChangeProbe, SubscriptionsServiceOptions } from "./subscriptions-deps.ts";

/**
 * The user's subscription: plan changes at once, their proration invoiced at once (an upgrade
 * charged, a downgrade credited to the next invoice: docs/decisions/0034), cancellation at the
 * period end and its undoing. The mirror and the change's invoice are recorded from the
 * provider's answer at once; the webhooks that follow change nothing more.
 */
export function createSubscriptionsService(options: SubscriptionsServiceOptions) {
  const state: { probe: PlanChangeProbe | null } = { probe: null };
  const deps: SubscriptionsDeps = { ...options, state };
  return {
    /** Tests set `state.probe` to crash a plan change half-way. */
    state,
    ...bindFirst(deps, { upgrade, cancel, cancelNow, resumeOwn, cancelAllNow, resume, analytics }),
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
