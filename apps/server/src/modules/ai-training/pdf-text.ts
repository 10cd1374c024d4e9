import { startModuleWorker } from "../../lib/module-worker.ts";

/** What one knowledge PDF may take to read (docs/decisions/0040-abuse-limits.md). */
export interface PdfLimits {
  maxPages: number;
  /** Characters of extracted text, all pages together. */
  maxCharacters: number;
  /** Bytes its compressed streams (images aside) may expand to. */
  maxExpandedBytes: number;
  /** The reading thread's JavaScript heap. */
  maxHeapMb: number;
  /** How long the reading may take. */
  timeLimitMs: number;
}

export const DEFAULT_PDF_LIMITS: PdfLimits = {
  maxPages: 1_000,
  maxCharacters: 2_000_000,
  maxExpandedBytes: 64 * 1024 * 1024,
  maxHeapMb: 256,
  timeLimitMs: 15_000,
};

type Refusal = "unreadable" | "pages" | "text" | "expands" | "resources";

/** What the reading thread (pdf-worker.ts) answers. */
export type PdfWorkerReply = { pages: string[] } | { refused: Exclude<Refusal, "resources"> };

export const PDF_MESSAGES: Record<Refusal, (limits: PdfLimits) => string> = {
  unreadable: () => "This file could not be read as a PDF",
  pages: (limits) =>
    `This PDF has more than ${limits.maxPages.toLocaleString("en-US")} pages, the most a knowledge document may have`,
  text: (limits) =>
    `This PDF has more than ${limits.maxCharacters.toLocaleString("en-US")} characters of text, the most a knowledge document may have`,
  expands: () =>
    "This PDF expands to far more data than its size (a decompression bomb?): it was not read",
  resources: () => "This PDF takes too much memory or time to read: it was not read",
};

/** The PDF was refused; the message says why, for the uploader. */
export class UnreadablePdfError extends Error {
  constructor(
    readonly reason: Refusal,
    limits: PdfLimits,
  ) {
    super(PDF_MESSAGES[reason](limits));
    this.name = "UnreadablePdfError";
  }
}

/**
 * The text of each page, read in a worker thread of its own: an untrusted file cannot stall the
 * event loop, and its memory (`resourceLimits`) and time are capped, as are its pages, its text
 * and what its compressed streams expand to. Refused: UnreadablePdfError.
 */
export async function extractPdfPages(
  path: string,
  limits: PdfLimits = DEFAULT_PDF_LIMITS,
): Promise<string[]> {
  const worker = startModuleWorker("pdf-worker", "modules/ai-training/pdf-worker", {
    workerData: { path, limits },
    resourceLimits: {
      maxOldGenerationSizeMb: limits.maxHeapMb,
      maxYoungGenerationSizeMb: Math.min(64, Math.max(8, limits.maxHeapMb / 8)),
    },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const reply = await new Promise<PdfWorkerReply | { refused: "resources" }>((resolve) => {
      timer = setTimeout(() => resolve({ refused: "resources" }), limits.timeLimitMs);
      worker.once("message", (message: PdfWorkerReply) => resolve(message));
      // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or a crash of the thread.
      worker.once("error", () => resolve({ refused: "resources" }));
      worker.once("exit", () => resolve({ refused: "resources" }));
    });
    if ("pages" in reply) return reply.pages;
    throw new UnreadablePdfError(reply.refused, limits);
  } finally {
    clearTimeout(timer);
    // Whatever it still holds goes with it.
    await worker.terminate();
  }
}
