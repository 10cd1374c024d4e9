import { asc, eq } from "drizzle-orm";
import { fanEmails, mailOutbox } from "../src/db/schema/index.ts";
import type { TestApp } from "./create-test-app.ts";

/** Waits for the mail a request queued (the kicked sender), then runs one more pass. */
export async function settleMail(t: TestApp): Promise<void> {
  await t.app.fanMail.idle();
  await t.app.fanMail.sendDue();
}

/** Every mail the outbox holds for `to` (no SMTP_URL: the outbox is the mail provider). */
export async function outboxOf(t: TestApp, to: string) {
  return t.app.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, to.toLowerCase()))
    .orderBy(asc(mailOutbox.createdAt));
}

/** The queue's rows of a user, oldest first. */
export async function queuedFor(t: TestApp, userId: string) {
  return t.app.database.db
    .select()
    .from(fanEmails)
    .where(eq(fanEmails.userId, userId))
    .orderBy(asc(fanEmails.createdAt));
}
