import type { Readable } from "node:stream";
import { DATA_EXPORTS_PER_DAY, type DataExport, PRIVACY_MESSAGES } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import { HttpError } from "../../plugins/errors.ts";
import type { FileStorage } from "../../providers/storage/index.ts";
import { createDataExportsRepository, toDataExport } from "./export-repository.ts";
import {
  type DataExportWorkerDeps,
  expireDataExports,
  requeueAbandonedExports,
  runDataExportWorker,
} from "./export-worker.ts";

const DAY_MS = 24 * 60 * 60_000;

export interface ExportDownload {
  stream: Readable;
  size: number;
  fileName: string;
}

/**
 * "Download my data" (decision 0062): asking (rate-limited), the newest export's state, the
 * owner's download, and this process's runs of the worker. The worker is started right after a
 * request and at boot; runs never overlap in one process, and rows are claimed with SKIP LOCKED
 * across processes.
 */
export function createDataExportsService(deps: DataExportWorkerDeps & { log: FastifyBaseLogger }) {
  const repository = createDataExportsRepository(deps.db);
  const now = () => new Date(deps.clock.now());
  let running: Promise<void> | null = null;
  let again = false;

  /** Runs the worker now, or once more after the run under way. */
  const work = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await runDataExportWorker(deps);
        await expireDataExports(deps);
      } while (again);
    })()
      .catch((error: unknown) => deps.log.error({ err: error }, "Data export worker failed"))
      .finally(() => {
        running = null;
      });
    return running;
  };

  return {
    work,
    /** Waits for the run under way, if any (tests; the app's close). */
    async settled(): Promise<void> {
      while (running) await running;
    },

    /** At boot: builds a crashed process left are queued again, and the queue is worked. */
    async resume(): Promise<void> {
      await requeueAbandonedExports(deps);
      void work();
    },

    async latest(userId: string): Promise<DataExport | null> {
      const row = await repository.latest(userId);
      return row ? toDataExport(row) : null;
    },

    /**
     * Asks for an export. One being built answers as it is (nothing new); the fan's own asks
     * are limited to DATA_EXPORTS_PER_DAY in 24 hours (an admin's on request are not).
     */
    async request(
      userId: string,
      requestedBy: string | null,
    ): Promise<{ created: boolean; data: DataExport }> {
      const pending = await repository.pending(userId);
      if (pending) return { created: false, data: toDataExport(pending) };
      if (requestedBy === null) {
        const since = new Date(deps.clock.now() - DAY_MS);
        if ((await repository.countAskedSince(userId, since)) >= DATA_EXPORTS_PER_DAY) {
          throw new HttpError(429, PRIVACY_MESSAGES.exportRateLimited);
        }
      }
      const row = await repository.create(userId, requestedBy, now());
      void work();
      return { created: true, data: toDataExport(row) };
    },

    /** The export's ZIP, for its owner only (anyone else: 404, as if it did not exist). */
    async download(userId: string, exportId: string, files: FileStorage): Promise<ExportDownload> {
      const row = await repository.find(exportId);
      if (!row || row.userId !== userId) throw new HttpError(404, PRIVACY_MESSAGES.exportNotFound);
      const expired =
        row.status === "expired" ||
        (row.status === "ready" && (row.expiresAt?.getTime() ?? 0) <= deps.clock.now());
      if (expired) throw new HttpError(410, PRIVACY_MESSAGES.exportExpired);
      if (row.status !== "ready" || !row.fileName) {
        throw new HttpError(409, PRIVACY_MESSAGES.exportNotReady);
      }
      const stat = await files.stat(row.fileName);
      if (!stat) throw new HttpError(410, PRIVACY_MESSAGES.exportExpired);
      const day = row.createdAt.toISOString().slice(0, 10);
      return {
        stream: files.read(row.fileName),
        size: stat.size,
        fileName: `twinline-data-${day}.zip`,
      };
    },
  };
}

export type DataExportsService = ReturnType<typeof createDataExportsService>;
