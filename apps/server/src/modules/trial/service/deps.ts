import { createHash } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../../../lib/clock.ts";
import type { CrisisDesk } from "../../chat/crisis.ts";
import {
  type ChatLlm,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  type PersonaSource,
} from "../../chat/service.ts";
import type { SettingsService } from "../../settings/service.ts";
import type { TrialRepository } from "../repository.ts";

export interface TrialServiceOptions {
  repository: TrialRepository;
  settings: Pick<SettingsService, "get">;
  llm: () => Promise<ChatLlm>;
  persona: PersonaSource;
  crisis: CrisisDesk;
  /** The clock of the AI notice's sittings (the member chat's) and of the clean-up. */
  noticeClock: Clock;
  cleanupClock: Clock;
  providerTimeoutMs?: number;
  log: FastifyBaseLogger;
  /** Told when a trial became a user's conversation (memory refreshes its summary). */
  onClaimed?: (userId: string) => void;
}

/** What each use case of the trial is given: its options, the provider's timeout filled in. */
export interface TrialDeps extends TrialServiceOptions {
  timeoutMs: number;
}

export function trialDeps(options: TrialServiceOptions): TrialDeps {
  return { ...options, timeoutMs: options.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS };
}

/** The address as the caps count it: a digest, so no address is stored. */
export const addressKey = (ip: string) => createHash("sha256").update(ip).digest("base64url");
