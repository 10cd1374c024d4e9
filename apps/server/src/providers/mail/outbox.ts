import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/index.ts";
import type { MailProvider } from "./index.ts";

/**
 * No SMTP configured: the mail is kept in the mail_outbox table, so the operator can read a reset
 * link on a machine with no mail server. Outside production its text is logged too; in
 * production (NODE_ENV=production) the log line names only recipient and subject: a reset link
 * is a credential, and logs travel further than the database.
 */
export function createOutboxMailProvider(options: {
  db: Database;
  log: FastifyBaseLogger;
  /** Whether the log line carries the mail's text (never in production). */
  logText: boolean;
}): MailProvider {
  return {
    kind: "outbox",
    async send(message) {
      await options.db.insert(mailOutbox).values({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
      });
      options.log.info(
        {
          to: message.to,
          subject: message.subject,
          ...(options.logText ? { text: message.text } : {}),
        },
        "Mail kept in the outbox (no SMTP_URL set)",
      );
    },
    async close() {},
  };
}
