import { randomBytes } from "node:crypto";

/** A Stripe object as the API answers it (JSON). */
export type Json = Record<string, unknown>;

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
