import type { z } from "zod";
import { UPLOAD_TIMEOUT_MS } from "../constants";
import { withCsrfRetry } from "./csrf";
import { NetworkError, TimeoutError } from "./errors";
import { type Answer, type AnswerSchema, checked } from "./request";
import { authHeaders, type BearerKind, httpFailure, parseText } from "./rules";
import { resolveUrl } from "./url";

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0 to 100, whole numbers. */
  percent: number;
}

export interface UploadWithProgressOptions {
  onProgress?: (progress: UploadProgress) => void;
  /** Which stored token to send as Bearer (a route's: `tokenFor(route.access)`). */
  token: BearerKind;
  signal?: AbortSignal;
  method?: "POST" | "PUT";
  /** Default 60 s (uploads). */
  timeoutMs?: number;
  /** The contract schema of the answer, as for api.* (an answer off it: "invalid-response"). */
  schema?: z.ZodType | AnswerSchema;
}

/**
 * A multipart upload that reports its progress. fetch cannot report upload progress, so this one
 * call goes through XMLHttpRequest, with every rule of apiRequest: base URL, cookies, 60 s
 * timeout, the csrf-token header with one refresh-and-retry, the Bearer token named by `token`,
 * 401 clearing the stored tokens, and ApiError, NetworkError or TimeoutError on failure.
 */
export async function uploadWithProgress<
  T = unknown,
  O extends UploadWithProgressOptions = UploadWithProgressOptions,
>(url: string, formData: FormData, options: O): Promise<Answer<T, O>> {
  const timeoutMs = options.timeoutMs ?? UPLOAD_TIMEOUT_MS;
  const body = await withCsrfRetry(
    (csrf) => sendXhr(url, formData, options, csrf, timeoutMs),
    () => options.onProgress?.({ loaded: 0, total: 0, percent: 0 }),
  );
  return checked(body, options.schema) as Answer<T, O>;
}

function sendXhr(
  url: string,
  formData: FormData,
  options: UploadWithProgressOptions,
  csrf: string | null,
  timeoutMs: number,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const { signal, onProgress } = options;
    if (signal?.aborted) {
      reject(signal.reason ?? new DOMException("The upload was aborted", "AbortError"));
      return;
    }
    const xhr = new XMLHttpRequest();
    let settled = false;
    let timedOut = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      outcome();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      xhr.abort();
      finish(() => reject(new TimeoutError(timeoutMs)));
    }, timeoutMs);
    const onAbort = () => {
      xhr.abort();
      finish(() =>
        reject(signal?.reason ?? new DOMException("The upload was aborted", "AbortError")),
      );
    };
    signal?.addEventListener("abort", onAbort, { once: true });

    xhr.open(options.method ?? "POST", resolveUrl(url));
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    for (const [name, value] of authHeaders(options.token, csrf)) {
      xhr.setRequestHeader(name, value);
    }

    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable || !onProgress) return;
      const percent = event.total > 0 ? Math.round((event.loaded / event.total) * 100) : 0;
      onProgress({ loaded: event.loaded, total: event.total, percent: Math.min(100, percent) });
    };
    xhr.onload = () =>
      finish(() => {
        const body = parseText(xhr.responseText, xhr.getResponseHeader("content-type") ?? "");
        if (xhr.status >= 200 && xhr.status < 300) {
          resolve(body);
          return;
        }
        reject(httpFailure(xhr.status, body));
      });
    xhr.onerror = () => finish(() => reject(new NetworkError()));
    xhr.onabort = () => {
      if (!timedOut) {
        finish(() => reject(new DOMException("The upload was aborted", "AbortError")));
      }
    };
    xhr.send(formData);
  });
}
