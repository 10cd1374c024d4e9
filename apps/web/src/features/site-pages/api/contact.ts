import { type ContactRequest, routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";

/** routes.mail.contact: the visitor's message, mailed to the operator. */
export const sendContactMessage = (input: ContactRequest) =>
  callRoute(routes.mail.contact, { body: input });
