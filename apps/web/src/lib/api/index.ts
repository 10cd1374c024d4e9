/**
 * The one API client (DESIGN.md, "Front end"; user-side spec sections 6 and 7).
 *
 * - base URL: VITE_API_URL, else the page's own origin;
 * - cookies are always sent (credentials: "include");
 * - 15 s timeout, 60 s for uploads (FormData bodies);
 * - every request carries the `csrf-token` header, fetched once from GET /api/csrf-token and
 *   cached; a 403 whose message mentions "CSRF token" refreshes it and retries once;
 * - Bearer token: a call through the route table (`callRoute(routes.x.y, ...)`, decision 0086)
 *   takes it from the definition's access (admin: adminToken, else userToken), never from the
 *   URL; below it, apiRequest, apiStream and uploadWithProgress send the one their `token` names;
 * - any 401 clears userToken, userData, adminToken and adminData and notifies subscribers;
 * - failures are thrown as ApiError (HTTP), NetworkError or TimeoutError;
 * - every call passes `schema`, the contract schema of its answer: the answer is parsed and typed
 *   by it, and one off it throws ApiError of kind "invalid-response" (decision 0032);
 *   `errorMessage(error, fallback)` is the one way to read what to show.
 *
 * Modules: errors (ApiError, NetworkError, TimeoutError), url (base URL), rules (Bearer token,
 * headers, cookies, 401, answer parsing), csrf (token cache, refresh-and-retry), send (one fetch
 * with timeout), request (apiRequest, api.*), upload (uploadWithProgress over XMLHttpRequest),
 * sse-parser and stream (apiStream, server-sent events over fetch).
 */

export { CSRF_TOKEN_PATH, getCsrfToken, resetCsrfToken } from "./csrf";
export {
  ApiError,
  type ApiErrorKind,
  errorMessage,
  isApiError,
  NetworkError,
  TimeoutError,
} from "./errors";
export {
  type AnswerSchema,
  answerReader,
  api,
  apiRequest,
  type QueryValue,
  type RequestOptions,
} from "./request";
export {
  type CallOptions,
  callAddress,
  callRoute,
  routeUrl,
  tokenFor,
} from "./route-client";
export { streamRoute } from "./route-stream";
export { uploadRoute } from "./route-upload";
export {
  type BearerKind,
  handleUnauthorized,
  onUnauthorized,
  UNAUTHORIZED_EVENT,
} from "./rules";
export { createSseParser, type StreamEvent } from "./sse-parser";
export {
  type ApiStreamOptions,
  type ApiStreamResult,
  apiStream,
  STREAM_IDLE_TIMEOUT_MS,
  type TypedStreamEvent,
} from "./stream";
export { type UploadProgress, type UploadWithProgressOptions, uploadWithProgress } from "./upload";
export { getApiBaseUrl, mediaUrl } from "./url";
