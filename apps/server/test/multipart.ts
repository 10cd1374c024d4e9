import type { LightMyRequestResponse } from "fastify";
import { pcm16Wav } from "../src/providers/stt/wav.ts";
import { csrfFor } from "./accounts.ts";
import type { TestApp } from "./create-test-app.ts";

export interface FilePart {
  field: string;
  filename: string;
  content: Buffer | string;
  contentType?: string;
}

/** A multipart/form-data body, as a browser's FormData sends it. */
export function multipartBody(parts: FilePart[], fields: Record<string, string> = {}) {
  const boundary = `----twinline${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.contentType ?? "application/octet-stream"}\r\n\r\n`,
      ),
      Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** An upload as the web client sends it (CSRF, Bearer token). */
export async function upload(
  t: TestApp,
  url: string,
  token: string | undefined,
  parts: FilePart[],
): Promise<LightMyRequestResponse> {
  const csrf = await csrfFor(t);
  const { payload, contentType } = multipartBody(parts);
  return t.app.inject({
    method: "POST",
    url,
    headers: {
      "content-type": contentType,
      "csrf-token": csrf.token,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    cookies: { _csrf: csrf.cookie },
    payload,
  });
}

/** A valid 1×1 PNG. */
export const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
/** The start of a JPEG (SOI, JFIF APP0): file-type needs no more. */
export const JPEG_HEAD = Buffer.concat([
  Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
    0x00, 0x01, 0x00, 0x00,
  ]),
  Buffer.alloc(64),
]);
/** A 16×16 ICO directory entry pointing at a PNG image. */
export function icoFile(): Buffer {
  const header = Buffer.from([0, 0, 1, 0, 1, 0]);
  const entry = Buffer.alloc(16);
  entry.writeUInt8(16, 0);
  entry.writeUInt8(16, 1);
  entry.writeUInt16LE(1, 4);
  entry.writeUInt16LE(32, 6);
  entry.writeUInt32LE(PNG_1PX.length, 8);
  entry.writeUInt32LE(22, 12);
  return Buffer.concat([header, entry, PNG_1PX]);
}
export const SVG_WITH_SCRIPT =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>';

/** A short valid WAV (PCM, 8 kHz, mono, silence). */
export function wavFile(samples = 800): Buffer {
  return pcm16Wav(new Float32Array(samples), 8000);
}

/**
 * A small real PDF whose pages carry the given text lines (Helvetica, one text object per
 * page), with a correct cross-reference table. No lines at all: a PDF without text.
 */
export function pdfWithText(pages: string[][]): Buffer {
  const objects: string[] = [];
  const pageIds: number[] = [];
  // 1 catalog, 2 pages, 3 font, then per page: page object, content stream.
  let next = 4;
  const pageObjects: string[] = [];
  for (const lines of pages) {
    const pageId = next++;
    const contentId = next++;
    pageIds.push(pageId);
    const pdfString = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
    const stream = lines.length
      ? `BT /F1 10 Tf 14 TL 40 800 Td ${lines.map((line) => `(${pdfString(line)}) '`).join(" ")} ET`
      : "0 0 m 100 100 l S";
    pageObjects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`;
    pageObjects[contentId] =
      `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`;
  }
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pageIds.length} >>`;
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  for (let id = 4; id < next; id++) objects[id] = pageObjects[id] ?? "";
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (let id = 1; id < next; id++) {
    offsets[id] = Buffer.byteLength(body);
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefAt = Buffer.byteLength(body);
  body += `xref\n0 ${next}\n0000000000 65535 f \n`;
  for (let id = 1; id < next; id++) body += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${next} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}
