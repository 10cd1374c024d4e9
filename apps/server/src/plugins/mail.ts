import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.ts";
import { createMailProvider, type MailProvider } from "../providers/mail/index.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Outgoing mail: SMTP when SMTP_URL is set, else the outbox table and a log line. */
    mail: MailProvider;
  }
}

/**
 * Outgoing mail for every module that sends it (accounts, fan mail, privacy): infrastructure,
 * like uploads, so that no module owns what the others send with (issue 29: a decorator owned
 * by the accounts module tied fan-mail, credits and auth into a cycle).
 */
export const mailPlugin = fp<{ config: Config }>(
  async (app: FastifyInstance, { config }) => {
    const mail = createMailProvider({
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      db: app.database.db,
      log: app.log,
      isProduction: config.isProduction,
      observability: app.observability,
    });
    app.decorate("mail", mail);
    // Registered before the modules that send: their onClose hooks (run in reverse) finish
    // their pending mail before the transport closes.
    app.addHook("onClose", async () => {
      await mail.close();
    });
  },
  { name: "mail" },
);
