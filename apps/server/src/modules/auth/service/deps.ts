import { createHash } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../../db/client.ts";
import type { MailProvider } from "../../../providers/mail/index.ts";
import type { SettingsService } from "../../settings/service.ts";
import type { UsersRepository } from "../../users/repository.ts";
import type { GoogleTokenVerifier } from "../google.ts";
import type { EndedTokensRepository, ResetTokensRepository } from "../repository.ts";
import type { TokenService } from "../tokens.ts";

export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

export interface AuthServiceOptions {
  db: Database;
  users: UsersRepository;
  resetTokens: ResetTokensRepository;
  endedTokens: EndedTokensRepository;
  tokens: TokenService;
  mail: MailProvider;
  settings: SettingsService;
  /** Undefined when GOOGLE_CLIENT_ID is not set. */
  google: GoogleTokenVerifier | undefined;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/** What each use case of the auth service is given: its options and this instance's mail. */
export interface AuthDeps extends AuthServiceOptions {
  /**
   * Mail goes out after the answer (the answer must not reveal whether an account exists by
   * its timing); the app waits for these on close.
   */
  pendingMail: Set<Promise<void>>;
}

export function authDeps(options: AuthServiceOptions): AuthDeps {
  return { ...options, pendingMail: new Set() };
}
