import { API_PREFIX, API_ROOT, type ErrorEnvelope } from "@twinline/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from "fastify-type-provider-zod";
import { ZodError } from "zod";
import { redactSecrets, redactSecretsIn } from "../lib/secret-values.ts";

/** An error a route or service throws on purpose: its status and message reach the client. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Optional machine-readable detail, sent as `error`. */
    readonly details?: unknown,
    /** Further top-level fields of the answer (the daily limit's `dailyLimit`). */
    readonly extra?: Record<string, unknown>,
    /** Headers of the answer (a 429's Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const CSRF_ERROR_MESSAGE = "Invalid or missing CSRF token";

/** `/api` and everything under it answers JSON; every other path belongs to the web app. */
export function isApiPath(url: string): boolean {
  return url === API_ROOT || url.startsWith(API_PREFIX) || url.startsWith(`${API_ROOT}?`);
}

interface Issue {
  path: string;
  message: string;
}

/** An error answer: its words and details never carry a known secret (lib/secret-values.ts). */
function envelope(message: string, error?: unknown): ErrorEnvelope {
  const safe = redactSecrets(message);
  return error === undefined
    ? { success: false, message: safe }
    : { success: false, message: safe, error: redactSecretsIn(error) };
}

/** "email: Invalid email address": the first issue names the field; all issues go in `error`. */
function validationEnvelope(issues: Issue[]): ErrorEnvelope {
  const first = issues[0];
  const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : "";
  return envelope(message || "Invalid request", { issues });
}

function pathOf(segments: readonly PropertyKey[]): string {
  return segments.map(String).join(".");
}

// Fastify's own 4xx errors, in words a client developer understands at once.
const FASTIFY_MESSAGES: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: "Request body is not valid JSON" },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    message: "Request body is empty but its content type is JSON",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: "Request body is too large" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: "Unsupported media type" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    message: "Request body size did not match Content-Length",
  },
  // @fastify/multipart: not multipart at all (406 by default), or a broken body.
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 400,
    message: "Send the file as multipart/form-data",
  },
  FST_MP_PREMATURE_CLOSE: { status: 400, message: "The multipart/form-data body is malformed" },
  FST_CSRF_MISSING_SECRET: { status: 403, message: CSRF_ERROR_MESSAGE },
  FST_CSRF_INVALID_TOKEN: { status: 403, message: CSRF_ERROR_MESSAGE },
};

/**
 * The last-resort answer, written out in full: it is sent when even building an answer failed,
 * so it depends on nothing (no redaction, no serializer) and quotes nothing.
 */
const INTERNAL_ERROR_BODY = JSON.stringify({ success: false, message: "Internal server error" });

export const DATABASE_REFUSED_MESSAGE = "The request holds a value that cannot be stored";

/** The SQLSTATE of a database error, or of the one a failed query wraps (drizzle's cause). */
function sqlState(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && typeof current === "object" && depth < 4; depth++) {
    const { code } = current;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = current.cause as typeof current;
  }
  return undefined;
}

/**
 * A database error about a value the request carried (SQLSTATE class 22, "data exception": a
 * NUL byte, a date out of range, a number too large) is the client's: 400, in words that quote
 * nothing. The contracts refuse these first; this is the net for a route that slipped.
 */
function databaseResponse(error: unknown): { status: number; body: ErrorEnvelope } | undefined {
  const state = sqlState(error);
  if (state?.startsWith("22")) return { status: 400, body: envelope(DATABASE_REFUSED_MESSAGE) };
  return undefined;
}

function toResponse(error: FastifyError): { status: number; body: ErrorEnvelope } | undefined {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((issue) => ({
      // An issue about the whole body (or query) has no path: name the part instead.
      path: issue.instancePath.slice(1).replaceAll("/", ".") || (error.validationContext ?? ""),
      message: issue.message ?? "Invalid value",
    }));
    return { status: 400, body: validationEnvelope(issues) };
  }
  if (error instanceof ZodError) {
    const issues = error.issues.map((issue) => ({
      path: pathOf(issue.path),
      message: issue.message,
    }));
    return { status: 400, body: validationEnvelope(issues) };
  }
  if (error instanceof HttpError) {
    const body = envelope(error.message, error.details);
    return {
      status: error.statusCode,
      body: error.extra ? { ...redactSecretsIn(error.extra), ...body } : body,
    };
  }
  const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
  if (known) return { status: known.status, body: envelope(known.message) };
  const database = databaseResponse(error);
  if (database) return database;
  // A JSON body the parser rejects arrives as a SyntaxError marked 400.
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return { status: 400, body: envelope("Request body is not valid JSON") };
  }
  // Other client errors from Fastify and its plugins (rate limit, bad URL...) carry safe texts.
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500 && !isResponseSerializationError(error)) {
    return { status, body: envelope(error.message) };
  }
  return undefined;
}

export interface ErrorsPluginOptions {
  /** Answers a path outside /api that no route matched (the web app's fallback). */
  notFoundFallback?: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

/**
 * The one place errors become responses: `{ success: false, message, error? }`. A 5xx says only
 * "Internal server error"; the details go to the log with the request id, never to the client.
 */
export const errorsPlugin = fp<ErrorsPluginOptions>(
  async (app: FastifyInstance, options) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      try {
        const known = toResponse(error);
        if (known) {
          if (known.status >= 500) request.log.error({ err: error }, "Request failed");
          // The answer's own words: a refused query's message would carry its bound parameters.
          else
            request.log.info({ err: known.body.message, status: known.status }, "Request refused");
          if (error instanceof HttpError && error.headers) reply.headers(error.headers);
          return reply.code(known.status).send(known.body);
        }
        request.log.error({ err: error }, "Request failed");
      } catch {
        // Never let this handler fail: Fastify's own fallback answers with the error's message.
      }
      return reply.code(500).type("application/json; charset=utf-8").send(INTERNAL_ERROR_BODY);
    });

    // Every text answer, a success too, loses any known secret by value: a route that echoes a
    // provider's words (a checkout error, a key test) cannot leak one.
    app.addHook("onSend", async (_request, reply, payload) => {
      if (typeof payload !== "string") return payload;
      const type = String(reply.getHeader("content-type") ?? "");
      return type.startsWith("application/json") || type.startsWith("text/")
        ? redactSecrets(payload)
        : payload;
    });

    app.setNotFoundHandler((request, reply) => {
      if (!isApiPath(request.url) && options.notFoundFallback) {
        return options.notFoundFallback(request, reply);
      }
      const path = request.url.split("?")[0];
      return reply.code(404).send(envelope(`Not found: ${request.method} ${path}`));
    });
  },
  { name: "errors" },
);
