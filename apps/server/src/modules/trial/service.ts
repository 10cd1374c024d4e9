import { bindFirst } from "../../lib/bind-first.ts";
import { type TrialServiceOptions, trialDeps } from "./service/deps.ts";
import { claim, deleteAbandoned, trialState } from "./service/lifecycle.ts";
import { prepare } from "./service/prepare.ts";

export { addressKey, type TrialServiceOptions } from "./service/deps.ts";
export { TRIAL_RETENTION_DAYS } from "./service/lifecycle.ts";
export type { PreparedTrialSend } from "./service/reply.ts";

/**
 * The anonymous trial (issue 27 item 1; docs/decisions/0084-anonymous-trial.md): the member
 * chat's rules and parts (prompt, persona, model, AI notice sittings, crisis check) for a visitor
 * known only by a device cookie, bounded per device, per address and per day, and the hand-over
 * of the conversation to the account the visitor makes or signs in to. Its use cases
 * (service/prepare.ts with service/reply.ts, service/lifecycle.ts) are bound to the options.
 */
export function createTrialService(options: TrialServiceOptions) {
  return bindFirst(trialDeps(options), {
    state: trialState,
    prepare,
    claim,
    deleteAbandoned,
  });
}

export type TrialService = ReturnType<typeof createTrialService>;
