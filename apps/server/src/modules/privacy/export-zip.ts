import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createDeflateRaw } from "node:zlib";
import { type FlateError, Zip, ZipPassThrough } from "fflate";
import { type ExportContext, type ExportKind, exportReadme } from "./export-kinds.ts";

const LEVEL = 6;

/**
 * A ZIP entry compressed by Node's zlib, on libuv's thread pool, not on the event loop (fflate's
 * own ZipDeflate compresses where it is pushed: ~20 ms of a busy loop per page of 2,000 messages,
 * bench/export). fflate's ZipPassThrough counts the size and the CRC of what is pushed (its
 * documented way to plug in another compressor); zlib's stream says when it is full.
 */
class ThreadPoolDeflate extends ZipPassThrough {
  /** The header's compression flag of level 6 ("normal"), as fflate's ZipDeflate writes it. */
  readonly flag = 0;
  private readonly deflate = createDeflateRaw({ level: LEVEL });

  constructor(filename: string, mtime: Date) {
    super(filename);
    this.compression = 8;
    this.mtime = mtime;
    // zlib's chunks are Buffers over plain ArrayBuffers, as fflate's handler types them.
    this.deflate.on("data", (chunk: Buffer<ArrayBuffer>) => this.ondata(null, chunk, false));
    this.deflate.once("end", () => this.ondata(null, new Uint8Array(0), true));
    this.deflate.once("error", (error) =>
      this.ondata(Object.assign(error, { code: 0 }) as FlateError, new Uint8Array(0), true),
    );
  }

  protected override process(chunk: Uint8Array<ArrayBuffer>, final: boolean): void {
    if (chunk.length > 0) this.deflate.write(chunk);
    if (final) this.deflate.end();
  }

  /** Resolves when the compressor has room for more (at once if it has). */
  async room(): Promise<void> {
    if (this.deflate.writableNeedDrain) await once(this.deflate, "drain");
  }

  /** The ZIP's terminate() on a failure: the compressor stops. */
  terminate = () => {
    this.deflate.destroy();
  };
}

/**
 * Writes the export's ZIP to `path`, streaming: each kind's text is compressed as it is written
 * (a page of rows at a time, export-kinds.ts) and the compressed bytes go to disk as they come,
 * waiting when the compressor or the disk is behind, so neither the rows nor the archive are ever
 * whole in memory. After each piece the event loop serves what waits (requests, timers) before
 * the next: an export of 100,000 messages never holds the server (bench/export). Answers the
 * file's size.
 */
export async function writeExportZip(
  path: string,
  kinds: readonly ExportKind[],
  context: ExportContext,
  madeAt: Date,
): Promise<number> {
  const file = createWriteStream(path);
  let size = 0;
  let failure: Error | null = null;
  const finished = new Promise<void>((resolve, reject) => {
    file.once("error", (error) => {
      failure = error;
      reject(error);
    });
    const zip = new Zip((error, chunk, final) => {
      if (error) {
        failure = error;
        reject(error);
        return;
      }
      size += chunk.length;
      file.write(chunk);
      if (final) file.end(() => resolve());
    });
    void (async () => {
      try {
        const add = async (
          name: string,
          write: (text: (t: string) => Promise<void>) => Promise<void>,
        ) => {
          const entry = new ThreadPoolDeflate(name, madeAt);
          zip.add(entry);
          await write(async (text) => {
            if (failure) throw failure;
            entry.push(Buffer.from(text, "utf8"));
            await entry.room();
            // The disk sets the pace: a full write buffer waits before more rows are read.
            if (file.writableNeedDrain) await once(file, "drain");
            else await nextTurn();
          });
          entry.push(new Uint8Array(0), true);
        };
        await add("README.md", async (text) => text(exportReadme(kinds, madeAt)));
        for (const kind of kinds) {
          await add(kind.file, (text) => kind.write({ write: text }, context));
        }
        zip.end();
      } catch (error) {
        zip.terminate();
        reject(error);
      }
    })();
  });
  try {
    await finished;
    return size;
  } catch (error) {
    file.destroy();
    await rm(path, { force: true });
    throw error;
  }
}
