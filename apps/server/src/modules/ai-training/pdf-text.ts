import { readFile } from "node:fs/promises";
import { extractText, getDocumentProxy } from "unpdf";

export class UnreadablePdfError extends Error {
  constructor(cause: unknown) {
    super("This file could not be read as a PDF", { cause });
    this.name = "UnreadablePdfError";
  }
}

/**
 * The text of each page. The PDF is parsed from memory (pdf.js needs the whole document; the
 * upload itself was streamed to disk and is capped at 50 MB). A broken file: UnreadablePdfError.
 */
export async function extractPdfPages(path: string): Promise<string[]> {
  try {
    const data = new Uint8Array(await readFile(path));
    // verbosity 0: pdf.js's warnings about a damaged file are not ours to print.
    const pdf = await getDocumentProxy(data, { verbosity: 0 });
    try {
      const { text } = await extractText(pdf, { mergePages: false });
      return text;
    } finally {
      await pdf.destroy();
    }
  } catch (error) {
    throw new UnreadablePdfError(error);
  }
}
