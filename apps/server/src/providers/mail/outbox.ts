import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/index.ts";
import type { MailProvider } from "./index.ts";

/**
 * No SMTP configured: the mail is kept in the mail_outbox table and its text is logged, so a
 * reset link can be followed on a machine with no mail server.
 */
export function createOutboxMailProvider(options: {
  db: Database;
  log: FastifyBaseLogger;
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
        { to: message.to, subject: message.subject, text: message.text },
        "Mail kept in the outbox (no SMTP_URL set)",
      );
    },
    async close() {},
  };
}
