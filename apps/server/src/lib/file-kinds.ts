import { open } from "node:fs/promises";
import { fileTypeFromBuffer } from "file-type";

/** What a file is by its content: a short extension and the content type it is served with. */
export interface FileKind {
  ext: string;
  mime: string;
}

export const IMAGE_KINDS = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  svg: "image/svg+xml",
} as const;
export type ImageExt = keyof typeof IMAGE_KINDS;

export const AUDIO_KINDS = { mp3: "audio/mpeg", wav: "audio/wav", webm: "audio/webm" } as const;
export type AudioExt = keyof typeof AUDIO_KINDS;

/** Every extension a stored file may have, with its content type. */
export const CONTENT_TYPES: Record<string, string> = {
  ...IMAGE_KINDS,
  ...AUDIO_KINDS,
  pdf: "application/pdf",
};

const HEAD_BYTES = 8192;

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * An SVG document: text whose first element is <svg>, after an optional BOM, XML declaration,
 * comments, processing instructions and doctype.
 */
export function looksLikeSvg(head: Buffer): boolean {
  let text = head.toString("utf8");
  if (text.includes("\u0000")) return false;
  text = text.replace(/^\uFEFF/, "");
  const prolog = /^\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)/i;
  for (let guard = 0; guard < 20; guard++) {
    const match = prolog.exec(text);
    if (!match) break;
    text = text.slice(match[0].length);
  }
  return /^\s*<svg[\s>/]/i.test(text);
}

const isPdf = (head: Buffer) => head.subarray(0, 5).toString("latin1") === "%PDF-";

/** The kind of the file at `path`, by its first bytes; undefined when none of ours. */
export async function detectFileKind(path: string): Promise<FileKind | undefined> {
  const head = await readHead(path);
  if (isPdf(head)) return { ext: "pdf", mime: "application/pdf" };
  if (looksLikeSvg(head)) return { ext: "svg", mime: IMAGE_KINDS.svg };
  const detected = await fileTypeFromBuffer(head);
  if (!detected) return undefined;
  switch (detected.ext) {
    case "png":
    case "jpg":
    case "gif":
    case "webp":
    case "avif":
    case "ico":
      return { ext: detected.ext, mime: IMAGE_KINDS[detected.ext] };
    case "mp3":
    case "wav":
    case "webm":
      return { ext: detected.ext, mime: AUDIO_KINDS[detected.ext] };
    default:
      return undefined;
  }
}
