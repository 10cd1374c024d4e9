import { routes, TRIAL_CODES, type TrialState } from "@twinline/contracts";
import { ApiError, callRoute } from "@/lib/api-client";

/**
 * The anonymous trial (issue 27 item 1; decision 0084): its state (routes.trial.state), and the
 * sends go through sendChatMessage with `route: routes.trial.message` (the same stream as the
 * member chat).
 */
export async function fetchTrial(signal?: AbortSignal): Promise<TrialState> {
  const body = await callRoute(routes.trial.state, { signal });
  return body.data;
}

/** A refusal of the trial (its allowance, a cap, or off): its message for the visitor. */
export function trialRefusal(error: unknown): { code: string; message: string } | null {
  if (!(error instanceof ApiError) || error.kind !== "http") return null;
  const body = (error.body ?? {}) as { code?: unknown; message?: unknown };
  const codes: readonly string[] = Object.values(TRIAL_CODES);
  if (typeof body.code !== "string" || !codes.includes(body.code)) return null;
  return { code: body.code, message: typeof body.message === "string" ? body.message : "" };
}
