import { pdfBomb } from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PDF_LIMITS, PDF_MESSAGES } from "../src/modules/ai-training/pdf-text.ts";
import { adminSession, call, messageOf } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";
import { pdfWithText, upload } from "./multipart.ts";

// Issue 17 item 5: a knowledge PDF is read in a worker thread with a memory ceiling, a time
// limit and caps on its pages, text and expansion; a hostile one is refused with a clear 400
// while the server keeps answering, and its memory goes with the thread.
describe("untrusted knowledge PDFs", () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await adminSession(t)).token;
  });
  afterAll(() => t?.close());

  const send = (filename: string, content: Buffer) =>
    upload(t, "/api/ai-training/knowledge-documents", admin, [
      { field: "documents", filename, content },
    ]);

  it("a decompression bomb (1 MB that inflates to 1 GB) is refused; health answers meanwhile", async () => {
    const bomb = pdfBomb();
    expect(bomb.length).toBeLessThan(1.1 * 1024 * 1024);
    const rssBefore = process.memoryUsage().rss;
    let settled = false;
    const uploading = send("bomb.pdf", bomb).finally(() => {
      settled = true;
    });
    const health = await call(t, "GET", "/api/health");
    expect(health.statusCode).toBe(200);
    // The health check answered while the PDF was still being read.
    expect(settled).toBe(false);

    const refused = await uploading;
    expect(refused.statusCode, refused.body).toBe(400);
    expect(messageOf(refused)).toBe(PDF_MESSAGES.expands(DEFAULT_PDF_LIMITS));
    // Nothing of the gigabyte stays in this process.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 1024 * 1024);
    const training = await call(t, "GET", "/api/ai-training", { token: admin });
    expect(training.json().data.knowledgeDocuments).toEqual([]);
  });

  it("a PDF with more pages than allowed is refused naming the limit", async () => {
    const pages = Array.from({ length: DEFAULT_PDF_LIMITS.maxPages + 1 }, () => [] as string[]);
    const refused = await send("long.pdf", pdfWithText(pages));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(messageOf(refused)).toBe(PDF_MESSAGES.pages(DEFAULT_PDF_LIMITS));
  });

  it("an ordinary PDF is still read (in the worker)", async () => {
    const accepted = await send("notes.pdf", pdfWithText([["Nova grew up by the sea."]]));
    expect(accepted.statusCode, accepted.body).toBe(200);
  });
});
