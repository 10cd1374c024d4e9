import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyServerOptions } from "fastify";
import { stdSerializers } from "pino";
import type { Config } from "./config.ts";
import { redactSecrets } from "./lib/secret-values.ts";

export const REQUEST_ID_HEADER = "x-request-id";

// A caller's id is reused (to follow one request across a proxy and this server) only when it
// cannot smuggle anything into the logs: short, and of safe characters.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === "string" && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Never logged, whatever a route or a plugin logs: credentials in headers, and provider keys
 * wherever an object carries them (request bodies are never logged at all: one line per
 * request with method, url, status and time).
 */
export const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "apiKey",
  "*.apiKey",
  "*.*.apiKey",
  "apiKeys",
  "*.apiKeys",
  "*.*.apiKeys",
  "body",
  "*.body",
];

/** A URL as logged: a session token in the query (the voice socket's) is never written. */
export function loggedUrl(url: string): string {
  return url.replace(/([?&](?:token|csrf)=)[^&#]*/gi, "$1[redacted]");
}

type SerializedError = { [key: string]: unknown; type: string; message: string; stack: string };
type QueryErrorLike = { query?: unknown; params?: unknown; cause?: unknown };

/** The bound parameters of every failed query in an error and its causes, as they print. */
function boundParameters(error: unknown): { line: string; values: string[] }[] {
  const found: { line: string; values: string[] }[] = [];
  let current = error as QueryErrorLike | undefined;
  for (let depth = 0; current && typeof current === "object" && depth < 8; depth++) {
    if (typeof current.query === "string" && Array.isArray(current.params)) {
      found.push({
        line: `\nparams: ${current.params}`,
        // Short values (a number, a flag) would wipe unrelated text; they say nothing anyway.
        values: current.params.map((value) => String(value)).filter((value) => value.length >= 4),
      });
    }
    current = current.cause as QueryErrorLike | undefined;
  }
  return found;
}

function scrub(text: string, parameters: { line: string; values: string[] }[]): string {
  if (typeof text !== "string") return text;
  let result = text;
  for (const { line, values } of parameters) {
    result = result.replaceAll(line, "");
    for (const value of values) result = result.replaceAll(value, "[parameter]");
  }
  return result;
}

/**
 * pino's error serializer, without the bound parameters of a failed query: drizzle writes them
 * into the message ("params: ..."), and PostgreSQL quotes a refused value in its own (the
 * password hash was once in a log line). The query text stays, with its $1 placeholders.
 */
export function serializeError(error: Error): SerializedError {
  const serialized = stdSerializers.err(error) as SerializedError;
  const parameters = boundParameters(error);
  if (parameters.length === 0 || typeof serialized !== "object" || serialized === null) {
    return serialized;
  }
  const { params: _params, ...rest } = serialized;
  return {
    ...rest,
    type: serialized.type,
    message: scrub(serialized.message, parameters),
    stack: scrub(serialized.stack, parameters),
  };
}

/** Serializers of every logger the app makes: errors lose their queries' bound parameters. */
export const LOG_SERIALIZERS = { err: serializeError };

/**
 * Hooks of every logger the app makes: each line, once written, loses every known secret by
 * value, wherever it sits (a message, an error, a provider's quote, a nested field).
 */
export const LOG_HOOKS = { streamWrite: redactSecrets };

/** pino options: the configured level; readable colours only for a person at a dev terminal. */
export function loggerOptions(config: Config): NonNullable<FastifyServerOptions["logger"]> {
  const pretty = process.stdout.isTTY === true && !config.isProduction;
  return {
    level: config.logLevel,
    // Never log credentials, whatever a later route logs.
    redact: REDACT_PATHS,
    serializers: LOG_SERIALIZERS,
    hooks: LOG_HOOKS,
    ...(pretty
      ? {
          transport: {
            target: "pino-pretty",
            options: { translateTime: "HH:MM:ss.l", ignore: "pid,hostname" },
          },
        }
      : {}),
  };
}
