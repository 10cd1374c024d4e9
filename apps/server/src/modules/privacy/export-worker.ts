import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { DATA_EXPORT_DAYS } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import { users } from "../../db/schema/index.ts";
import type { Clock } from "../../lib/clock.ts";
import type { MailProvider } from "../../providers/mail/index.ts";
import type { FileStorage } from "../../providers/storage/index.ts";
import { EXPORT_KINDS, type ExportKind } from "./export-kinds.ts";
import { sendExportReadyMail } from "./export-mail.ts";
import { createDataExportsRepository } from "./export-repository.ts";
import { writeExportZip } from "./export-zip.ts";

const DAY_MS = 24 * 60 * 60_000;

export interface DataExportWorkerDeps {
  db: Database;
  /** Private storage (never served as is): the ZIPs live here until they expire. */
  files: FileStorage;
  /** Where a ZIP is written before it moves into storage (same disk). */
  temporaryDirectory: string;
  mail: MailProvider;
  log: FastifyBaseLogger;
  clock: Clock;
  /** The app's address, for the mail's link to the profile. */
  publicUrl: string;
  kinds?: readonly ExportKind[];
}

/**
 * Builds every queued export, one after the other, until none is left; answers how many were
 * built. A plain function over the data_exports table, so a job queue can run it as it is: each
 * row is claimed with FOR UPDATE SKIP LOCKED, so several instances (or jobs) share the queue.
 */
export async function runDataExportWorker(deps: DataExportWorkerDeps): Promise<number> {
  const repository = createDataExportsRepository(deps.db);
  const now = () => new Date(deps.clock.now());
  let built = 0;
  for (;;) {
    const claimed = await repository.claimNext(now());
    if (!claimed) return built;
    const fileName = `${claimed.id}.zip`;
    const temporaryPath = join(deps.temporaryDirectory, `${randomUUID()}.zip`);
    try {
      const size = await writeExportZip(
        temporaryPath,
        deps.kinds ?? EXPORT_KINDS,
        { db: deps.db, userId: claimed.userId },
        now(),
      );
      await deps.files.putFile(temporaryPath, fileName);
      const expiresAt = new Date(deps.clock.now() + DATA_EXPORT_DAYS * DAY_MS);
      const ready = await repository.markReady(claimed.id, fileName, size, now(), expiresAt);
      if (!ready) {
        // The account was deleted meanwhile (its rows went with it): the file goes too.
        await deps.files.delete(fileName);
        continue;
      }
      built += 1;
      await announceReady(deps, claimed.userId, expiresAt);
    } catch (error) {
      deps.log.error({ err: error, exportId: claimed.id }, "Data export failed");
      await repository.markFailed(claimed.id, (error as Error).message ?? "failed", now());
    }
  }
}

async function announceReady(deps: DataExportWorkerDeps, userId: string, expiresAt: Date) {
  const [user] = await deps.db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return;
  try {
    await sendExportReadyMail(deps.mail, {
      to: user.email,
      name: user.name,
      profileUrl: `${deps.publicUrl.replace(/\/$/, "")}/dashboard/profile`,
      expiresAt,
    });
  } catch (error) {
    // The export stays ready and shows on the profile; only the mail is missing.
    deps.log.error({ err: error }, "Data export mail not sent");
  }
}

/** Deletes the files of exports past their 7 days; answers how many. */
export async function expireDataExports(
  deps: Pick<DataExportWorkerDeps, "db" | "files" | "clock">,
): Promise<number> {
  const repository = createDataExportsRepository(deps.db);
  const files = await repository.expire(new Date(deps.clock.now()));
  for (const name of files) await deps.files.delete(name);
  return files.length;
}

/** At boot: builds left running by a crashed process are queued again, then built. */
export async function requeueAbandonedExports(
  deps: Pick<DataExportWorkerDeps, "db" | "clock">,
): Promise<number> {
  return createDataExportsRepository(deps.db).requeueAbandoned(new Date(deps.clock.now()));
}
