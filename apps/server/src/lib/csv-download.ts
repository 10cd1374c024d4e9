import { Readable } from "node:stream";
import { type CsvValue, csvRow } from "@twinline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { utcDay } from "./utc-day.ts";

export interface CsvDownload<T> {
  /** The file is `${name}-${yyyy-MM-dd}.csv`, dated `day` (the UTC day of the export). */
  name: string;
  day?: Date;
  header: readonly string[];
  toRow: (row: T) => CsvValue[];
  /** The rows, a batch at a time (an export reads a few hundred rows per query). */
  batches: AsyncIterable<T[]> | Iterable<T[]>;
}

/**
 * Every CSV file the server answers: a BOM (spreadsheets then read UTF-8), the header, then each
 * batch as it is read, so memory stays flat however many rows match. The first batch is read
 * before the answer begins: a query the database refuses is an ordinary error answer (400 or
 * 500), never a 200 cut short. A later failure can only cut the download; the log says why.
 */
export async function sendCsvDownload<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  { name, day = new Date(), header, toRow, batches }: CsvDownload<T>,
): Promise<FastifyReply> {
  const rows =
    Symbol.asyncIterator in batches
      ? batches[Symbol.asyncIterator]()
      : (async function* () {
          yield* batches;
        })();
  const first = await rows.next();
  async function* lines(): AsyncGenerator<string> {
    try {
      yield `\uFEFF${csvRow(header)}`;
      for (let next = first; !next.done; next = await rows.next()) {
        yield next.value.map((row) => csvRow(toRow(row))).join("");
      }
    } catch (error) {
      request.log.error({ err: error, file: name }, "A CSV export failed while streaming");
      throw error;
    } finally {
      await rows.return?.(undefined);
    }
  }
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${name}-${utcDay(day)}.csv"`)
    .header("cache-control", "no-store")
    .send(Readable.from(lines()));
}
