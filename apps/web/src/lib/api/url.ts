/** The API host without a trailing slash; "" means the page's own origin. */
export function getApiBaseUrl(): string {
  const configured = import.meta.env.VITE_API_URL;
  return typeof configured === "string" ? configured.trim().replace(/\/+$/, "") : "";
}

function isAbsolute(url: string): boolean {
  return /^[a-z][a-z\d+.-]*:/i.test(url) || url.startsWith("//");
}

/** A path as a full URL on the API host (base URL rule); absolute URLs stay as they are. */
export function resolveUrl(path: string): string {
  if (isAbsolute(path)) return path;
  return `${getApiBaseUrl()}${path.startsWith("/") ? path : `/${path}`}`;
}

/**
 * A media path from the API (e.g. "/uploads/x.png") as a URL the browser can load: relative
 * paths get the API host, absolute, data: and blob: URLs stay as they are, empty gives "".
 */
export function mediaUrl(path: string | null | undefined): string {
  const value = path?.trim();
  if (!value) return "";
  return resolveUrl(value);
}
