import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { strToU8, Zip, ZipDeflate } from "fflate";
import { type ExportContext, type ExportKind, exportReadme } from "./export-kinds.ts";

/**
 * Writes the export's ZIP to `path`, streaming: each kind's text is compressed as it is written
 * and the compressed bytes go to disk as they come, waiting when the disk is behind, so neither
 * the rows nor the archive are ever whole in memory. Answers the file's size.
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
          const entry = new ZipDeflate(name, { level: 6 });
          entry.mtime = madeAt;
          zip.add(entry);
          await write(async (text) => {
            if (failure) throw failure;
            entry.push(strToU8(text));
            // The disk sets the pace: a full write buffer waits before more rows are read.
            if (file.writableNeedDrain) await once(file, "drain");
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
