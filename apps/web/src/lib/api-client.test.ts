import { DELETE_CONFIRMATION_WORD, routes } from "@twinline/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { FakeXhr, installFakeXhr } from "@/test/fake-xhr";
import {
  ApiError,
  answerReader,
  api,
  apiRequest,
  callRoute,
  errorMessage,
  mediaUrl,
  NetworkError,
  onUnauthorized,
  resetCsrfToken,
  TimeoutError,
  type UploadProgress,
  uploadRoute,
  uploadWithProgress,
} from "./api-client";

/** Every path below is a route of the table: the client calls what it is given. */
const CSRF_PATH = routes.security.csrfToken.path;

/** The token kind every low-level call names (a route's comes from its definition). */
const AS_USER = { token: "user" } as const;
const AS_ADMIN = { token: "admin" } as const;

interface Call {
  url: string;
  init: RequestInit;
  headers: Headers;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/**
 * A fake fetch: GET /api/csrf-token answers the next token of `tokens`; every other call is
 * answered by `handler`. Records every call.
 */
function fakeFetch(
  handler: (call: Call, index: number) => Response | Promise<Response>,
  tokens = ["tok-1", "tok-2", "tok-3"],
) {
  const calls: Call[] = [];
  let csrfCount = 0;
  let apiCount = 0;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const call = { url, init, headers: new Headers(init.headers) };
    calls.push(call);
    if (url.endsWith(CSRF_PATH)) {
      return json({ csrfToken: tokens[Math.min(csrfCount++, tokens.length - 1)] });
    }
    return handler(call, apiCount++);
  });
  vi.stubGlobal("fetch", fetchMock);
  const apiCalls = () => calls.filter((c) => !c.url.endsWith(CSRF_PATH));
  const csrfCalls = () => calls.filter((c) => c.url.endsWith(CSRF_PATH));
  return { fetchMock, calls, apiCalls, csrfCalls };
}

beforeEach(() => {
  resetCsrfToken();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("api client: requests", () => {
  it("calls the same origin by default and sends cookies", async () => {
    const { apiCalls } = fakeFetch(() => json({ ok: true }));
    await expect(api.get(routes.settings.public.path, AS_USER)).resolves.toEqual({ ok: true });
    expect(apiCalls()[0]?.url).toBe(routes.settings.public.path);
    expect(apiCalls()[0]?.init.credentials).toBe("include");
  });

  it("prefixes VITE_API_URL when it is set", async () => {
    vi.stubEnv("VITE_API_URL", "https://api.example.com/");
    const { apiCalls, csrfCalls } = fakeFetch(() => json({}));
    await api.get(routes.settings.public.path, AS_USER);
    expect(apiCalls()[0]?.url).toBe(`https://api.example.com${routes.settings.public.path}`);
    expect(csrfCalls()[0]?.url).toBe(`https://api.example.com${CSRF_PATH}`);
  });

  it("sends JSON bodies and query parameters", async () => {
    const { apiCalls } = fakeFetch(() => json({ done: true }));
    await api.post(routes.chat.send.path, { message: "hi" }, AS_USER);
    await api.get(routes.chat.messages.path, {
      ...AS_USER,
      query: { page: 2, limit: 20, skip: undefined },
    });
    const [post, get] = apiCalls();
    expect(post?.init.method).toBe("POST");
    expect(post?.headers.get("content-type")).toBe("application/json");
    expect(post?.init.body).toBe(JSON.stringify({ message: "hi" }));
    expect(get?.url).toBe(`${routes.chat.messages.path}?page=2&limit=20`);
  });
});

describe("api client: answers checked by their contract schema", () => {
  const balanceSchema = z.object({ success: z.literal(true), available: z.number().int() });

  it("answers the parsed value when the answer matches the schema", async () => {
    fakeFetch(() => json({ success: true, available: 42, extra: "dropped" }));
    const answer = await api.get(routes.billing.creditBalance.path, {
      ...AS_USER,
      schema: balanceSchema,
    });
    expect(answer).toEqual({ success: true, available: 42 });
  });

  it("throws an invalid-response ApiError when the answer is off its contract", async () => {
    fakeFetch(() => json({ success: true, available: "42" }));
    const failure = await api
      .post(routes.billing.creditBalance.path, undefined, { ...AS_USER, schema: balanceSchema })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).kind).toBe("invalid-response");
    expect(errorMessage(failure, "Failed to load credit balance")).toBe(
      "Failed to load credit balance",
    );
  });

  it("takes a reader in place of a zod schema: its value, or invalid-response when it reads none", async () => {
    const reader = answerReader((body) => {
      const n = (body as { n?: unknown } | undefined)?.n;
      return typeof n === "number" ? { n, doubled: n * 2 } : null;
    });
    fakeFetch(() => json({ n: 21 }));
    await expect(
      api.get(routes.settings.public.path, { ...AS_USER, schema: reader }),
    ).resolves.toEqual({
      n: 21,
      doubled: 42,
    });
    fakeFetch(() => json({ n: "21" }));
    await expect(
      api.get(routes.settings.public.path, { ...AS_USER, schema: reader }),
    ).rejects.toMatchObject({
      kind: "invalid-response",
    });
  });
});

describe("api client: CSRF token", () => {
  it("fetches the token once and sends it on every request", async () => {
    const { apiCalls, csrfCalls } = fakeFetch(() => json({}));
    await api.get(routes.settings.public.path, AS_USER);
    await api.post(routes.auth.login.path, { email: "a@b.c", password: "x" }, AS_USER);
    await api.delete(routes.chat.clearHistory.path, AS_USER);
    expect(csrfCalls()).toHaveLength(1);
    expect(apiCalls().map((c) => c.headers.get("csrf-token"))).toEqual(["tok-1", "tok-1", "tok-1"]);
  });

  it("shares one token request between parallel calls", async () => {
    const { csrfCalls } = fakeFetch(() => json({}));
    await Promise.all([
      api.get(routes.settings.public.path, AS_USER),
      api.get(routes.auth.config.path, AS_USER),
      api.get(routes.trial.state.path, AS_USER),
    ]);
    expect(csrfCalls()).toHaveLength(1);
  });

  it("refreshes the token and retries once on a CSRF 403", async () => {
    const { apiCalls, csrfCalls } = fakeFetch((_call, index) =>
      index === 0
        ? json({ success: false, message: "Invalid CSRF token" }, 403)
        : json({ saved: true }),
    );
    await expect(api.put(routes.account.profile.path, { name: "A" }, AS_USER)).resolves.toEqual({
      saved: true,
    });
    expect(csrfCalls()).toHaveLength(2);
    expect(apiCalls().map((c) => c.headers.get("csrf-token"))).toEqual(["tok-1", "tok-2"]);
  });

  it("retries only once: a second CSRF 403 is thrown", async () => {
    const { apiCalls } = fakeFetch(() =>
      json({ success: false, message: "Missing CSRF token" }, 403),
    );
    const error = await api
      .post(routes.auth.logout.path, undefined, AS_USER)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect(apiCalls()).toHaveLength(2);
  });

  it("does not retry a 403 that is not about the CSRF token", async () => {
    const { apiCalls, csrfCalls } = fakeFetch(() =>
      json({ success: false, message: "Daily free message limit reached" }, 403),
    );
    await expect(api.post(routes.chat.send.path, {}, AS_USER)).rejects.toMatchObject({
      status: 403,
      message: "Daily free message limit reached",
    });
    expect(apiCalls()).toHaveLength(1);
    expect(csrfCalls()).toHaveLength(1);
  });

  it("still sends the request when the token cannot be fetched", async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL) => {
        calls.push(String(input));
        if (String(input).endsWith(CSRF_PATH)) throw new TypeError("Failed to fetch");
        return json({ ok: 1 });
      }),
    );
    await expect(api.get(routes.settings.public.path, AS_USER)).resolves.toEqual({ ok: 1 });
    expect(calls).toContain(routes.settings.public.path);
  });
});

describe("api client: bearer token", () => {
  beforeEach(() => {
    localStorage.setItem("userToken", "user-jwt");
    localStorage.setItem("adminToken", "admin-jwt");
  });

  const done = { success: true, message: "Done" };
  const admin = { _id: "a1", id: "a1", name: "Admin", email: "admin@example.com", role: "admin" };
  const bearers = (calls: Call[]) => calls.map((c) => c.headers.get("authorization"));

  it("sends the admin token for a route its definition gives the admin, whatever its path", async () => {
    const { apiCalls } = fakeFetch(() => json(done));
    await callRoute(routes.adminSession.logout);
    // Not under /api/admin: the definition's access decides, not the URL.
    await callRoute(routes.adminBilling.deletePackage, { params: { id: "package-1" } });
    expect(bearers(apiCalls())).toEqual(["Bearer admin-jwt", "Bearer admin-jwt"]);
  });

  it("sends the user token for a fan's route and a public one, even under /api/admin", async () => {
    const { apiCalls } = fakeFetch((call) =>
      call.url === routes.adminSession.login.path
        ? json({ success: true, token: "t", admin })
        : json(done),
    );
    await callRoute(routes.privacy.deleteAccount, {
      body: { confirmation: DELETE_CONFIRMATION_WORD },
    });
    await callRoute(routes.adminSession.login, { body: { email: "a@b.c", password: "x" } });
    expect(bearers(apiCalls())).toEqual(["Bearer user-jwt", "Bearer user-jwt"]);
  });

  it("sends the token kind a call names (decision 0008)", async () => {
    const { apiCalls } = fakeFetch(() => json({ success: true, data: [], packages: [] }));
    await callRoute(routes.billing.packages);
    await callRoute(routes.billing.packages, { token: "admin" });
    await api.put(routes.settings.save.path, {}, AS_ADMIN);
    await api.get(routes.adminUsers.list.path, AS_USER);
    await api.upload(routes.settings.uploadImage.path, new FormData(), AS_ADMIN);
    expect(bearers(apiCalls())).toEqual([
      "Bearer user-jwt",
      "Bearer admin-jwt",
      "Bearer admin-jwt",
      "Bearer user-jwt",
      "Bearer admin-jwt",
    ]);
  });

  it("falls back to the admin token in session storage", async () => {
    localStorage.removeItem("adminToken");
    sessionStorage.setItem("adminToken", "session-admin-jwt");
    const { apiCalls } = fakeFetch(() => json({}));
    await api.get(routes.adminSession.verifyToken.path, AS_ADMIN);
    expect(apiCalls()[0]?.headers.get("authorization")).toBe("Bearer session-admin-jwt");
  });

  it("sends no Authorization header without a stored token", async () => {
    localStorage.clear();
    const { apiCalls } = fakeFetch(() => json({}));
    await api.get(routes.settings.public.path, AS_USER);
    await api.get(routes.dashboards.metrics.path, AS_ADMIN);
    expect(apiCalls().every((c) => !c.headers.has("authorization"))).toBe(true);
  });
});

describe("api client: 401", () => {
  it("clears all four keys from local and session storage and notifies subscribers", async () => {
    for (const key of ["userToken", "userData", "adminToken", "adminData"]) {
      localStorage.setItem(key, "x");
      sessionStorage.setItem(key, "x");
    }
    localStorage.setItem("theme", "dark");
    const listener = vi.fn();
    const unsubscribe = onUnauthorized(listener);
    fakeFetch(() => json({ success: false, message: "Not authorized" }, 401));

    await expect(api.get(routes.auth.me.path, AS_USER)).rejects.toMatchObject({ status: 401 });

    for (const key of ["userToken", "userData", "adminToken", "adminData"]) {
      expect(localStorage.getItem(key)).toBeNull();
      expect(sessionStorage.getItem(key)).toBeNull();
    }
    expect(localStorage.getItem("theme")).toBe("dark");
    expect(listener).toHaveBeenCalledTimes(1);

    unsubscribe();
    await api.get(routes.auth.me.path, AS_USER).catch(() => {});
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe("api client: errors", () => {
  it("throws ApiError with the status, the server message and the raw body", async () => {
    const body = { success: false, message: "Email already registered", error: { field: "email" } };
    fakeFetch(() => json(body, 409));
    const error = await api.post(routes.auth.signup.path, {}, AS_USER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      message: "Email already registered",
      body,
      kind: "http",
    });
  });

  it("gives a readable message when the body is not the envelope", async () => {
    fakeFetch(() => new Response("Bad gateway", { status: 502 }));
    await expect(api.get(routes.settings.public.path, AS_USER)).rejects.toMatchObject({
      status: 502,
      message: "Request failed with status 502",
      body: "Bad gateway",
    });
  });

  it("turns a failed connection into a NetworkError", async () => {
    fakeFetch(() => {
      throw new TypeError("Failed to fetch");
    });
    const error = await api.get(routes.settings.public.path, AS_USER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as ApiError).kind).toBe("network");
    expect((error as ApiError).message).toMatch(/network error/i);
  });

  it("times out after 15 s with a TimeoutError", async () => {
    vi.useFakeTimers();
    fakeFetch(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener("abort", () =>
            reject(new DOMException("aborted", "AbortError")),
          );
        }),
    );
    const outcome = api.get(routes.settings.public.path, AS_USER).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(14_999);
    let settled = false;
    void outcome.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(15_000);
  });

  it("gives uploads 60 s", async () => {
    vi.useFakeTimers();
    fakeFetch(
      ({ init }) =>
        new Promise<Response>((resolve, reject) => {
          const timer = setTimeout(() => resolve(json({ url: "/uploads/a.png" })), 30_000);
          init.signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(new DOMException("aborted", "AbortError"));
          });
        }),
    );
    const form = new FormData();
    form.append("file", new Blob(["x"]), "a.png");
    const outcome = api.upload(routes.settings.uploadImage.path, form, AS_ADMIN);
    await vi.advanceTimersByTimeAsync(30_000);
    await expect(outcome).resolves.toEqual({ url: "/uploads/a.png" });
  });

  it("passes a caller's abort through untouched", async () => {
    fakeFetch(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener("abort", () =>
            reject(new DOMException("aborted", "AbortError")),
          );
        }),
    );
    const controller = new AbortController();
    const outcome = apiRequest(routes.settings.public.path, {
      ...AS_USER,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 0));
    controller.abort();
    const error = await outcome;
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as DOMException).name).toBe("AbortError");
  });
});

describe("mediaUrl", () => {
  it("prefixes relative media paths with the API host", () => {
    vi.stubEnv("VITE_API_URL", "https://api.example.com");
    expect(mediaUrl("/uploads/x.png")).toBe("https://api.example.com/uploads/x.png");
    expect(mediaUrl("uploads/x.png")).toBe("https://api.example.com/uploads/x.png");
  });

  it("keeps absolute URLs and gives empty for nothing", () => {
    vi.stubEnv("VITE_API_URL", "https://api.example.com");
    expect(mediaUrl("https://cdn.example.com/a.png")).toBe("https://cdn.example.com/a.png");
    expect(mediaUrl("data:image/png;base64,AAAA")).toBe("data:image/png;base64,AAAA");
    expect(mediaUrl("")).toBe("");
    expect(mediaUrl(null)).toBe("");
  });

  it("stays on the page's origin without VITE_API_URL", () => {
    vi.stubEnv("VITE_API_URL", "");
    expect(mediaUrl("/uploads/x.png")).toBe("/uploads/x.png");
  });
});

describe("errorMessage", () => {
  it("gives the server's message, else the fallback", () => {
    const withMessage = new ApiError("Invalid email or password", {
      status: 401,
      body: { success: false, message: "Invalid email or password" },
    });
    expect(errorMessage(withMessage, "Failed to login. Please try again.")).toBe(
      "Invalid email or password",
    );
    const bare = new ApiError("Request failed with status 500", { status: 500, body: "" });
    expect(errorMessage(bare, "Failed to login. Please try again.")).toBe(
      "Failed to login. Please try again.",
    );
    expect(errorMessage(new Error("x"), "Fallback")).toBe("Fallback");
    expect(errorMessage(new NetworkError(), "Fallback")).toBe(
      "Network error. Please check your connection and try again",
    );
  });
});

describe("uploadWithProgress", () => {
  function form(bytes = 1000) {
    const data = new FormData();
    data.append("documents", new Blob(["x".repeat(bytes)], { type: "application/pdf" }), "a.pdf");
    return data;
  }

  it("sends the csrf header, cookies and the chosen Bearer token, reports progress, resolves the answer", async () => {
    localStorage.setItem("userToken", "user-jwt");
    localStorage.setItem("adminToken", "admin-jwt");
    installFakeXhr();
    const { apiCalls } = fakeFetch(() => json({ success: true, data: { _id: "d1" } }));
    const progress: UploadProgress[] = [];
    const body = await uploadWithProgress(routes.aiTraining.uploadDocument.path, form(), {
      ...AS_ADMIN,
      onProgress: (p) => progress.push(p),
    });
    expect(body).toEqual({ success: true, data: { _id: "d1" } });
    const xhr = FakeXhr.instances[0];
    expect(xhr?.method).toBe("POST");
    expect(xhr?.withCredentials).toBe(true);
    expect(xhr?.requestHeaders.get("csrf-token")).toBe("tok-1");
    expect(xhr?.requestHeaders.get("authorization")).toBe("Bearer admin-jwt");
    expect(apiCalls()[0]?.url).toBe(routes.aiTraining.uploadDocument.path);
    expect(progress.map((p) => p.percent)).toEqual([50, 100]);
  });

  it("parses the answer with the call's schema", async () => {
    installFakeXhr();
    const schema = z.object({ success: z.literal(true), data: z.object({ _id: z.string() }) });
    fakeFetch(() => json({ success: true, data: { _id: "d1", extra: 1 } }));
    await expect(
      uploadWithProgress(routes.aiTraining.uploadDocument.path, form(), { ...AS_ADMIN, schema }),
    ).resolves.toEqual({
      success: true,
      data: { _id: "d1" },
    });
    fakeFetch(() => json({ success: true, data: {} }));
    await expect(
      uploadWithProgress(routes.aiTraining.uploadDocument.path, form(), { ...AS_ADMIN, schema }),
    ).rejects.toMatchObject({
      kind: "invalid-response",
    });
  });

  it("uploads a route with its definition's token, else with the kind it is given", async () => {
    localStorage.setItem("userToken", "user-jwt");
    localStorage.setItem("adminToken", "admin-jwt");
    installFakeXhr();
    const document = { _id: "d1", originalName: "a.pdf", size: 1000, uploadDate: "", passages: 1 };
    fakeFetch(() => json({ success: true, message: "Uploaded", data: document }));
    await uploadRoute(routes.aiTraining.uploadDocument, form());
    await uploadWithProgress(routes.aiTraining.uploadDocument.path, form(), AS_USER);
    expect(FakeXhr.instances.map((x) => x.requestHeaders.get("authorization"))).toEqual([
      "Bearer admin-jwt",
      "Bearer user-jwt",
    ]);
  });

  it("refreshes the CSRF token and retries once on a CSRF 403", async () => {
    installFakeXhr();
    const { csrfCalls } = fakeFetch((_call, index) =>
      index === 0 ? json({ success: false, message: "Invalid CSRF token" }, 403) : json({ ok: 1 }),
    );
    await expect(
      uploadWithProgress(routes.aiTraining.uploadDocument.path, form(), AS_ADMIN),
    ).resolves.toEqual({ ok: 1 });
    expect(csrfCalls()).toHaveLength(2);
    expect(FakeXhr.instances.map((x) => x.requestHeaders.get("csrf-token"))).toEqual([
      "tok-1",
      "tok-2",
    ]);
  });

  it("throws ApiError with the server's message and clears the tokens on 401", async () => {
    installFakeXhr();
    fakeFetch(() => json({ success: false, message: "Only PDF files are allowed" }, 400));
    await expect(
      uploadWithProgress(routes.aiTraining.uploadDocument.path, form(), AS_ADMIN),
    ).rejects.toMatchObject({
      name: "ApiError",
      status: 400,
      message: "Only PDF files are allowed",
    });
    localStorage.setItem("adminToken", "admin-jwt");
    const listener = vi.fn();
    const off = onUnauthorized(listener);
    fakeFetch(() => json({ success: false, message: "Not authorized" }, 401));
    await expect(
      uploadWithProgress(routes.aiTraining.uploadDocument.path, form(), AS_ADMIN),
    ).rejects.toMatchObject({
      status: 401,
    });
    expect(localStorage.getItem("adminToken")).toBeNull();
    expect(listener).toHaveBeenCalledTimes(1);
    off();
  });

  it("gives a NetworkError when no answer comes", async () => {
    installFakeXhr();
    fakeFetch(() => {
      throw new TypeError("Failed to fetch");
    });
    await expect(
      uploadWithProgress(routes.aiTraining.uploadDocument.path, form(), AS_ADMIN),
    ).rejects.toBeInstanceOf(NetworkError);
  });

  it("times out after 60 s", async () => {
    vi.useFakeTimers();
    installFakeXhr();
    fakeFetch(() => new Promise<Response>(() => {}));
    const outcome = uploadWithProgress(
      routes.aiTraining.uploadDocument.path,
      form(),
      AS_ADMIN,
    ).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(FakeXhr.instances[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(60_000);
    expect(FakeXhr.instances[0]?.aborted).toBe(true);
  });

  it("passes a caller's abort through and aborts the request", async () => {
    installFakeXhr();
    fakeFetch(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const outcome = uploadWithProgress(routes.aiTraining.uploadDocument.path, form(), {
      ...AS_ADMIN,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 0));
    controller.abort();
    const error = await outcome;
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as DOMException).name).toBe("AbortError");
    expect(FakeXhr.instances[0]?.aborted).toBe(true);
  });
});
