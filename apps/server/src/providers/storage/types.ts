import type { Readable } from "node:stream";

/**
 * Where uploaded files live. Local disk under DATA_DIR/uploads now; an S3-compatible store
 * can implement the same interface (docs/decisions/0010-provider-keys.md, "Uploads").
 */
export interface FileStorage {
  /** Moves a finished temporary file in under `name` (a generated, flat file name). */
  putFile(temporaryPath: string, name: string): Promise<void>;
  /** Removes it; a file already gone is fine. */
  delete(name: string): Promise<void>;
  /** Its size, or undefined when there is no such file. */
  stat(name: string): Promise<{ size: number } | undefined>;
  /** Its bytes, whole or the inclusive range. */
  read(name: string, range?: { start: number; end: number }): Readable;
  /** A path on local disk for SDKs that upload from a file (the voice clone). */
  localPath(name: string): Promise<string>;
}

/** A flat generated name: uuid + extension; anything else is refused before touching disk. */
export const STORED_NAME =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{2,5}$/;
