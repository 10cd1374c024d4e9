import { randomUUID } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { z } from "zod";
import { CONTENT_TYPES, detectFileKind, type FileKind } from "../lib/file-kinds.ts";
import { createLocalStorage, type FileStorage, STORED_NAME } from "../providers/storage/index.ts";
import { HttpError } from "./errors.ts";

declare module "fastify" {
  interface FastifyInstance {
    uploads: {
      /** Served to anyone at /uploads/<name> (logos, persona image, favicon). */
      publicFiles: FileStorage;
      /** Never served as is: knowledge PDFs, the voice sample (admin routes stream them). */
      privateFiles: FileStorage;
      /** Where received files wait to be checked (same disk as the storages: a rename). */
      temporaryDirectory: string;
    };
  }
}

export const UPLOAD_MESSAGES = {
  notMultipart: "Send the file as multipart/form-data",
  noFile: "No file was uploaded",
  oneFile: "Upload one file at a time",
  pathInName: "The file name must not contain a path",
  malformed: "The multipart/form-data body is malformed",
} as const;

/**
 * Whether an error met while reading a multipart request is the body's fault: busboy's parse
 * errors (no or wrong boundary, truncated body, bad part headers) and @fastify/multipart's
 * client errors. A file-system error (it has a `syscall`) is ours, never the client's.
 */
export function isMalformedMultipart(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { syscall, statusCode } = error as { syscall?: unknown; statusCode?: unknown };
  if (syscall !== undefined) return false;
  if (typeof statusCode === "number") return statusCode >= 400 && statusCode < 500;
  return error instanceof Error;
}

export interface ReceivedFile {
  /** The form field that carried it. */
  field: string;
  /** The name the browser gave, without any path (names with a path are refused). */
  filename: string;
  temporaryPath: string;
  size: number;
  /** What it is by its content; undefined when none of the kinds we know. */
  kind: FileKind | undefined;
}

export interface ReceiveOptions {
  /** The accepted field names; another one is refused with 400 naming it. */
  fields: readonly string[];
  maxBytes: number;
  tooLargeMessage: string;
}

const hasPath = (name: string) =>
  /[/\\]/.test(name) || name === ".." || name === "." || name.includes("\0");

function isTooLarge(error: unknown): boolean {
  return (error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE";
}

/**
 * Receives exactly one file of a multipart request: streamed to a temporary file (never whole
 * in memory), cut off at `maxBytes`, then identified by its first bytes. The caller moves the
 * temporary file into storage or removes it (`discard`).
 */
export async function receiveOneFile(
  request: FastifyRequest,
  options: ReceiveOptions,
): Promise<ReceivedFile> {
  if (!request.isMultipart()) throw new HttpError(400, UPLOAD_MESSAGES.notMultipart);
  // busboy needs a boundary; without one it throws before the first part.
  if (!/;\s*boundary=/i.test(String(request.headers["content-type"] ?? ""))) {
    throw new HttpError(400, UPLOAD_MESSAGES.malformed);
  }
  let received: ReceivedFile | undefined;
  const fail = async (status: number, message: string, details?: unknown): Promise<never> => {
    if (received) await discard(received);
    throw new HttpError(status, message, details);
  };
  try {
    for await (const part of request.parts({ limits: { fileSize: options.maxBytes } })) {
      if (part.type !== "file") continue;
      if (received) {
        part.file.resume();
        await fail(400, UPLOAD_MESSAGES.oneFile);
      }
      if (!options.fields.includes(part.fieldname)) {
        part.file.resume();
        await fail(
          400,
          `${part.fieldname}: unexpected file field; expected ${options.fields.join(" or ")}`,
          {
            field: part.fieldname,
          },
        );
      }
      if (hasPath(part.filename)) {
        part.file.resume();
        await fail(400, `${part.fieldname}: ${UPLOAD_MESSAGES.pathInName}`, {
          field: part.fieldname,
        });
      }
      const temporaryPath = join(request.server.uploads.temporaryDirectory, `${randomUUID()}.part`);
      received = {
        field: part.fieldname,
        filename: part.filename,
        temporaryPath,
        size: 0,
        kind: undefined,
      };
      // A stream pipeline: the bytes go to disk as they arrive, the request is paused while the
      // disk is behind, and at most one chunk is in memory at a time.
      await pipeline(part.file, createWriteStream(temporaryPath));
      if (part.file.truncated) await fail(400, options.tooLargeMessage);
      received.size = part.file.bytesRead;
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (isTooLarge(error)) await fail(400, options.tooLargeMessage);
    // Multipart limits (parts, fields) and broken bodies: the client's fault, never a 500.
    if (isMalformedMultipart(error)) await fail(400, UPLOAD_MESSAGES.malformed);
    if (received) await discard(received);
    throw error;
  }
  if (!received) throw new HttpError(400, UPLOAD_MESSAGES.noFile);
  received.kind = await detectFileKind(received.temporaryPath);
  return received;
}

export async function discard(file: ReceivedFile): Promise<void> {
  await rm(file.temporaryPath, { force: true });
}

/** A new flat name for a stored file: uuid + the extension of its detected kind. */
export const storedNameFor = (kind: FileKind) => `${randomUUID()}.${kind.ext}`;

/** "/uploads/<name>": the setting's value for a public file. */
export const PUBLIC_UPLOADS_PREFIX = "/uploads/";

// Uploaded SVGs are documents that could carry script: served with a CSP that forbids all of
// it (and sandboxes the document), so opening one cannot act in the app's origin.
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export interface UploadsPluginOptions {
  dataDir: string;
}

/**
 * Multipart parsing (per-route file limits through receiveOneFile), the upload storages under
 * DATA_DIR/uploads, and GET /uploads/<name> with a safe content type.
 */
export const uploadsPlugin = fp<UploadsPluginOptions>(
  async (app: FastifyInstance, options) => {
    const root = join(options.dataDir, "uploads");
    const temporaryDirectory = join(root, "tmp");
    mkdirSync(temporaryDirectory, { recursive: true });
    const publicFiles = createLocalStorage(root);
    const privateFiles = createLocalStorage(join(root, "private"));
    app.decorate("uploads", { publicFiles, privateFiles, temporaryDirectory });

    await app.register(fastifyMultipart, {
      // busboy keeps the name as sent, so a name with a path is seen and refused.
      preservePath: true,
      throwFileSizeLimit: true,
      limits: { files: 2, fields: 10, fieldSize: 64 * 1024, parts: 12, headerPairs: 100 },
    });

    app.get(
      `${PUBLIC_UPLOADS_PREFIX}:name`,
      {
        schema: {
          hide: true,
          params: z.object({ name: z.string() }),
        },
      },
      async (request, reply) => {
        const { name } = request.params as { name: string };
        const ext = name.split(".").pop() ?? "";
        const type = CONTENT_TYPES[ext];
        const found = STORED_NAME.test(name) && type ? await publicFiles.stat(name) : undefined;
        if (!found || !type) throw new HttpError(404, "File not found");
        reply
          .header("content-type", type)
          .header("content-length", found.size)
          .header("x-content-type-options", "nosniff")
          // Names are never reused: a file can be cached for good.
          .header("cache-control", "public, max-age=31536000, immutable");
        if (ext === "svg") reply.header("content-security-policy", SVG_CSP);
        return reply.send(publicFiles.read(name));
      },
    );
  },
  { name: "uploads" },
);
