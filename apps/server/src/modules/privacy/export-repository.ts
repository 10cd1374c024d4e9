import type { DataExport } from "@twinline/contracts";
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { type DataExportRow, dataExports } from "../../db/schema/index.ts";

export function toDataExport(row: DataExportRow): DataExport {
  return {
    _id: row.id,
    status: row.status,
    requestedByAdmin: row.requestedBy !== null,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.status === "ready" ? (row.expiresAt?.toISOString() ?? null) : null,
    sizeBytes: row.sizeBytes,
  };
}

/** A build that has been running this long died with its process: it is queued again. */
export const RUNNING_LEASE_MS = 30 * 60_000;

/** The data_exports rows: the durable state of "Download my data" (decision 0062). */
export function createDataExportsRepository(db: Database) {
  return {
    async latest(userId: string): Promise<DataExportRow | undefined> {
      const [row] = await db
        .select()
        .from(dataExports)
        .where(eq(dataExports.userId, userId))
        .orderBy(desc(dataExports.createdAt))
        .limit(1);
      return row;
    },

    async find(id: string): Promise<DataExportRow | undefined> {
      const [row] = await db.select().from(dataExports).where(eq(dataExports.id, id));
      return row;
    },

    /** The export being built or waiting, if any (a second request answers it). */
    async pending(userId: string): Promise<DataExportRow | undefined> {
      const [row] = await db
        .select()
        .from(dataExports)
        .where(
          and(eq(dataExports.userId, userId), inArray(dataExports.status, ["queued", "running"])),
        )
        .limit(1);
      return row;
    },

    /** The fan's own requests since `since` (the rate limit; an admin's do not count). */
    async countAskedSince(userId: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(dataExports)
        .where(
          and(
            eq(dataExports.userId, userId),
            isNull(dataExports.requestedBy),
            gte(dataExports.createdAt, since),
          ),
        );
      return Number(row?.n ?? 0);
    },

    async create(userId: string, requestedBy: string | null, now: Date): Promise<DataExportRow> {
      const [row] = await db
        .insert(dataExports)
        .values({ userId, requestedBy, createdAt: now })
        .returning();
      if (!row) throw new Error("The export was not recorded");
      return row;
    },

    /**
     * Takes the oldest queued export for this worker: FOR UPDATE SKIP LOCKED, so workers of
     * several instances never take the same one.
     */
    async claimNext(now: Date): Promise<DataExportRow | undefined> {
      const [row] = await db
        .update(dataExports)
        .set({ status: "running", startedAt: now })
        .where(
          eq(
            dataExports.id,
            sql`(select ${dataExports.id} from ${dataExports} where ${dataExports.status} = 'queued' order by ${dataExports.createdAt} limit 1 for update skip locked)`,
          ),
        )
        .returning();
      return row;
    },

    async markReady(id: string, fileName: string, sizeBytes: number, now: Date, expiresAt: Date) {
      const [row] = await db
        .update(dataExports)
        .set({ status: "ready", fileName, sizeBytes, finishedAt: now, expiresAt })
        .where(and(eq(dataExports.id, id), eq(dataExports.status, "running")))
        .returning();
      return row;
    },

    async markFailed(id: string, error: string, now: Date) {
      await db
        .update(dataExports)
        .set({ status: "failed", error: error.slice(0, 500), finishedAt: now })
        .where(eq(dataExports.id, id));
    },

    /** Builds left running by a process that died are queued again. */
    async requeueAbandoned(now: Date): Promise<number> {
      const rows = await db
        .update(dataExports)
        .set({ status: "queued", startedAt: null })
        .where(
          and(
            eq(dataExports.status, "running"),
            lt(dataExports.startedAt, new Date(now.getTime() - RUNNING_LEASE_MS)),
          ),
        )
        .returning({ id: dataExports.id });
      return rows.length;
    },

    /** Ready exports past their expiry, marked expired; answers their files to delete. */
    async expire(now: Date): Promise<string[]> {
      const rows = await db
        .update(dataExports)
        .set({ status: "expired" })
        .where(and(eq(dataExports.status, "ready"), lt(dataExports.expiresAt, now)))
        .returning({ fileName: dataExports.fileName });
      return rows.flatMap((row) => (row.fileName ? [row.fileName] : []));
    },

    /** Every file of a user's exports (the account's deletion removes them). */
    async filesOf(userId: string, executor: Database = db): Promise<string[]> {
      const rows = await executor
        .select({ fileName: dataExports.fileName })
        .from(dataExports)
        .where(eq(dataExports.userId, userId))
        .orderBy(asc(dataExports.createdAt));
      return rows.flatMap((row) => (row.fileName ? [row.fileName] : []));
    },
  };
}

export type DataExportsRepository = ReturnType<typeof createDataExportsRepository>;
