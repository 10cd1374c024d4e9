import { z } from "zod";
import { contactRequestSchema, contactResponseSchema } from "../contact";
import { defineRoute } from "./define";
import { pageAnswerSchema } from "./files";

const unsubscribeQuery = z.object({ token: z.string().max(200).optional() });

/**
 * The contact form and the unsubscribe link of mail that is not transactional
 * (apps/server/src/modules/fan-mail, docs/decisions/0066). The unsubscribe routes answer an HTML
 * page, opened from the mail (GET) or posted by its button and by mail clients' one-click
 * unsubscribe (POST, RFC 8058).
 */
export const mailRoutes = {
  unsubscribePage: defineRoute({
    method: "GET",
    path: "/api/mail/unsubscribe",
    access: "public",
    kind: "file",
    tags: ["mail"],
    summary: "The unsubscribe page of a mail's link",
    query: unsubscribeQuery,
    response: pageAnswerSchema,
    produces: ["text/html"],
  }),
  unsubscribe: defineRoute({
    method: "POST",
    path: "/api/mail/unsubscribe",
    access: "public",
    kind: "file",
    tags: ["mail"],
    summary: "Stops the fan's mail that is not transactional",
    query: unsubscribeQuery,
    response: pageAnswerSchema,
    produces: ["text/html"],
  }),
  contact: defineRoute({
    method: "POST",
    path: "/api/contact",
    access: "public",
    tags: ["pages"],
    summary: "Sends a message to the operator's contact address",
    body: contactRequestSchema,
    response: contactResponseSchema,
    errors: [400, 403, 429, 503],
  }),
} as const;
