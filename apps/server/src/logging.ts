import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyServerOptions } from "fastify";
import type { Config } from "./config.ts";

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

/** pino options: the configured level; readable colours only for a person at a dev terminal. */
export function loggerOptions(config: Config): NonNullable<FastifyServerOptions["logger"]> {
  const pretty = process.stdout.isTTY === true && !config.isProduction;
  return {
    level: config.logLevel,
    // Never log credentials, whatever a later route logs.
    redact: REDACT_PATHS,
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
