import { randomBytes } from "node:crypto";

/** A Stripe object as the API answers it (JSON). */
export type Json = Record<string, unknown>;

/**
 * Makes the ids of one emulator: `{prefix}_{hex}`, or `{prefix}_{tag}_{hex}` when a kind has a
 * tag (Stripe's test-mode sessions are cs_test_*). `tag` overrides every kind's, so the
 * sandbox's ids (`pi_sandbox_*`, `cs_sandbox_*`) say where they were made.
 */
export function idMaker(tag?: string) {
  return (prefix: string, kindTag?: string): string => {
    const each = tag ?? kindTag;
    const random = randomBytes(12).toString("hex");
    return each ? `${prefix}_${each}_${random}` : `${prefix}_${random}`;
  };
}
