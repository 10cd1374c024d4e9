import { type ContactRequest, contactResponseSchema } from "@twinline/contracts";
import { api } from "@/lib/api-client";

/** POST /api/contact: the visitor's message, mailed to the operator. */
export const sendContactMessage = (input: ContactRequest) =>
  api.post("/api/contact", input, { schema: contactResponseSchema });
