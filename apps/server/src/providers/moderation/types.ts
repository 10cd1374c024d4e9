import type { CrisisCategory, CrisisVerdict } from "./crisis-phrases.ts";

export type { CrisisCategory, CrisisVerdict };

export interface ModerationRequest {
  text: string;
  /** Aborting it cancels the provider request (a client that went away). */
  signal?: AbortSignal;
}

/**
 * The crisis check every fan message passes before the model sees it (issue 25): suicide and
 * self-harm, in the moderation API's categories. `source` says which check decided: the provider,
 * or the offline phrases (no key, or the provider failed).
 */
export interface ModerationProvider {
  readonly mode: "openai" | "offline";
  check(request: ModerationRequest): Promise<CrisisVerdict & { source: "openai" | "offline" }>;
}
