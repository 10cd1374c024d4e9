import { constants, deflateRawSync } from "node:zlib";

/**
 * A zlib stream of `bytes` zero bytes (a multiple of 16 MiB), built without compressing them:
 * one raw deflate block of 16 MiB of zeros ends on a byte boundary (sync flush) and depends on no
 * earlier data, so copies of it are valid one after another; then the final block and the
 * Adler-32 of n zeros, ((n mod 65521) << 16) | 1. About 16 KB per 16 MiB.
 */
export function zerosZlib(bytes: number): Buffer {
  const chunk = 16 * 1024 * 1024;
  if (bytes % chunk !== 0) throw new Error("bytes must be a multiple of 16 MiB");
  const block = deflateRawSync(Buffer.alloc(chunk), {
    level: 9,
    finishFlush: constants.Z_SYNC_FLUSH,
  });
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((bytes % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array<Buffer>(bytes / chunk).fill(block),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
}

/**
 * A one-page PDF whose content stream is a FlateDecode bomb: under a megabyte on disk, `bytes`
 * of zeros once inflated (issue 17: a 950 KB file held 2.4 GB and stalled the server).
 */
export function pdfBomb(bytes = 1024 ** 3): Buffer {
  const stream = zerosZlib(bytes);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (part: Buffer | string) => {
    const buffer = typeof part === "string" ? Buffer.from(part, "latin1") : part;
    parts.push(buffer);
    length += buffer.length;
  };
  add("%PDF-1.4\n");
  const objects: Array<Array<Buffer | string>> = [
    ["<< /Type /Catalog /Pages 2 0 R >>"],
    ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"],
    ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>"],
    [`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, "\nendstream"],
  ];
  objects.forEach((pieces, index) => {
    offsets.push(length);
    add(`${index + 1} 0 obj\n`);
    for (const piece of pieces) add(piece);
    add("\nendobj\n");
  });
  const xrefAt = length;
  add(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) add(`${String(offset).padStart(10, "0")} 00000 n \n`);
  add(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`);
  return Buffer.concat(parts);
}
