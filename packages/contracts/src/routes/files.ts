import { z } from "zod";

/** A Blob as contracts (no DOM library) sees it. */
export interface FileBytes {
  readonly size: number;
  readonly type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * What a `file` route's success answer is read as on the web: the bytes (a Blob of the audio or
 * the ZIP, read with responseType "blob"), or the text of a page. The server writes the bytes
 * itself; the OpenAPI document lists no schema for them.
 */
export const fileAnswerSchema = z.custom<FileBytes>(
  (value) => typeof value === "object" && value !== null && "size" in value,
  { error: "Not a file" },
);

/** An HTML page (the unsubscribe link's), read as text. */
export const pageAnswerSchema = z.string();
