import { vi } from "vitest";

/**
 * A stand-in for XMLHttpRequest (jsdom's cannot reach a stubbed fetch): each send() reports
 * upload progress at 50 % of the body's size, then hands the request to the global fetch, so
 * the same fetch stub answers fetch and XHR calls alike. Install with `installFakeXhr()`.
 */
export class FakeXhr {
  static instances: FakeXhr[] = [];

  method = "GET";
  url = "";
  withCredentials = false;
  status = 0;
  responseText = "";
  readonly requestHeaders = new Headers();
  body: unknown = null;
  aborted = false;
  private responseHeaders = new Headers();

  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    FakeXhr.instances.push(this);
  }

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.requestHeaders.set(name, value);
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders.get(name);
  }

  abort() {
    if (this.aborted) return;
    this.aborted = true;
    this.onabort?.();
  }

  send(body: unknown) {
    this.body = body;
    const total = body instanceof FormData ? sizeOf(body) : 0;
    void (async () => {
      await Promise.resolve();
      if (this.aborted) return;
      this.upload.onprogress?.({
        lengthComputable: total > 0,
        loaded: total / 2,
        total,
      } as ProgressEvent);
      let response: Response;
      try {
        response = await fetch(this.url, {
          method: this.method,
          headers: this.requestHeaders,
          body: body as BodyInit,
          credentials: this.withCredentials ? "include" : "same-origin",
        });
      } catch {
        if (!this.aborted) this.onerror?.();
        return;
      }
      const text = await response.text();
      if (this.aborted) return;
      this.upload.onprogress?.({
        lengthComputable: total > 0,
        loaded: total,
        total,
      } as ProgressEvent);
      this.status = response.status;
      this.responseText = text;
      this.responseHeaders = response.headers;
      this.onload?.();
    })();
  }
}

function sizeOf(form: FormData): number {
  let size = 0;
  for (const [, value] of form.entries()) {
    size += typeof value === "string" ? value.length : value.size;
  }
  return size;
}

/** Replaces XMLHttpRequest with FakeXhr for the current test (restored by unstubGlobals). */
export function installFakeXhr() {
  FakeXhr.instances = [];
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  return FakeXhr;
}
