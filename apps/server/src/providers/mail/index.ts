import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import type { Observability } from "../../observability/observability.ts";
import { observeProvider } from "../../observability/provider-calls.ts";
import { createOutboxMailProvider } from "./outbox.ts";
import { createSmtpMailProvider } from "./smtp.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where a reply goes (the contact form: the visitor who wrote). */
  replyTo?: string;
  /** Extra headers (List-Unsubscribe on mail that is not transactional). */
  headers?: Record<string, string>;
}

/** Sends mail. `kind` tells which implementation runs (the log and tests read it). */
export interface MailProvider {
  readonly kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_MAIL_FROM = "Twinline <no-reply@localhost>";

export interface MailProviderOptions {
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  db: Database;
  log: FastifyBaseLogger;
  /** NODE_ENV=production: the outbox does not log a mail's text (reset links). */
  isProduction: boolean;
  /** Each send timed and traced, as every provider's calls (observability/provider-calls.ts). */
  observability?: Observability;
}

/** SMTP when SMTP_URL is set; otherwise the outbox table plus a log line. */
export function createMailProvider(options: MailProviderOptions): MailProvider {
  const mail = options.smtpUrl
    ? createSmtpMailProvider({ url: options.smtpUrl, from: options.mailFrom ?? DEFAULT_MAIL_FROM })
    : createOutboxMailProvider({
        db: options.db,
        log: options.log,
        logText: !options.isProduction,
      });
  return options.observability
    ? observeProvider(options.observability, "mail", mail.kind, mail)
    : mail;
}
