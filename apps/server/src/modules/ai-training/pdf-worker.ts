// The thread that reads an uploaded PDF (pdf-text.ts starts it, one per document): an untrusted
// file may take memory and time without end, which here cost only this thread.
import { readFile } from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";
import { inflateSync } from "node:zlib";
import { extractText, getDocumentProxy } from "unpdf";
import type { PdfLimits, PdfWorkerReply } from "./pdf-text.ts";

const input = workerData as { path: string; limits: PdfLimits };

/**
 * The bytes the document's compressed streams expand to, images aside (text extraction does not
 * decode them), counted before pdf.js sees the file: answers false as soon as they pass `budget`.
 * A stream's dictionary is read roughly (the text between its `obj` and `stream`); what cannot
 * be inflated here is left to pdf.js, under the thread's own limits.
 */
function expandsWithin(data: Buffer, budget: number): boolean {
  const text = data.toString("latin1");
  const streamStart = /stream\r?\n/g;
  let left = budget;
  for (let match = streamStart.exec(text); match; match = streamStart.exec(text)) {
    if (match.index > 0 && text[match.index - 1] === "d") continue; // "endstream"
    const objectAt = text.lastIndexOf(" obj", match.index);
    const dictionary = text.slice(Math.max(objectAt, match.index - 4096), match.index);
    const filters = dictionary.match(/\/FlateDecode\b/g)?.length ?? 0;
    if (filters === 0 || /\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    const begin = match.index + match[0].length;
    const end = text.indexOf("endstream", begin);
    let chunk: Buffer = data.subarray(begin, end < 0 ? data.length : end);
    for (let round = 0; round < filters; round++) {
      try {
        chunk = inflateSync(chunk, { maxOutputLength: Math.max(1, left) });
      } catch (error) {
        if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return false;
        break;
      }
    }
    left -= chunk.length;
    if (left < 0) return false;
    streamStart.lastIndex = end < 0 ? text.length : end;
  }
  return true;
}

async function read(): Promise<PdfWorkerReply> {
  const data = await readFile(input.path);
  if (!expandsWithin(data, input.limits.maxExpandedBytes)) return { refused: "expands" };
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // verbosity 0: pdf.js's warnings about a damaged file are not ours to print.
    pdf = await getDocumentProxy(new Uint8Array(data.buffer, data.byteOffset, data.length), {
      verbosity: 0,
    });
  } catch {
    return { refused: "unreadable" };
  }
  try {
    if (pdf.numPages > input.limits.maxPages) return { refused: "pages" };
    const { text } = await extractText(pdf, { mergePages: false });
    const characters = text.reduce((sum, page) => sum + page.length, 0);
    if (characters > input.limits.maxCharacters) return { refused: "text" };
    return { pages: text };
  } catch {
    return { refused: "unreadable" };
  } finally {
    await pdf.destroy().catch(() => {});
  }
}

read().then(
  (reply) => parentPort?.postMessage(reply),
  () => parentPort?.postMessage({ refused: "unreadable" } satisfies PdfWorkerReply),
);
