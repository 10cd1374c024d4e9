import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { isUuid } from "../../lib/search.ts";

/**
 * The unsubscribe link's token (docs/decisions/0066): `<userId>.<HMAC-SHA256 of it>`, under a
 * key derived from JWT_SECRET for this purpose alone. It never expires (a link in an old mail
 * must still work) and can do one thing only: stop that fan's mail that is not transactional.
 */
export function createUnsubscribeTokens(jwtSecret: string) {
  const key = Buffer.from(hkdfSync("sha256", jwtSecret, "twinline", "mail-unsubscribe", 32));
  const signatureOf = (userId: string) =>
    createHmac("sha256", key).update(`unsubscribe:${userId}`).digest("base64url");
  return {
    sign: (userId: string): string => `${userId}.${signatureOf(userId)}`,
    /** The user id the token was made for; null for anything else. */
    verify(token: string): string | null {
      const [userId, signature, ...rest] = token.split(".");
      if (!userId || !signature || rest.length > 0 || !isUuid(userId)) return null;
      const expected = Buffer.from(signatureOf(userId));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
    },
  };
}

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
