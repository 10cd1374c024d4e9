import { randomUUID } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import type { UserRow } from "../../db/schema/index.ts";
import { keepNewest } from "../../lib/keep-newest.ts";
import { isUuid } from "../../lib/search.ts";

/** How long a session token lasts; a logout, password change or deactivation ends it sooner. */
export const TOKEN_LIFETIME = "7d";

export interface TokenClaims {
  /** The user's id (a UUID: anything else is not one of our tokens). */
  sub: string;
  role: "user" | "admin";
  /** The user's token_version when the token was issued. */
  ver: number;
  /** This token's own id: a logout ends it by this (docs/decisions/0003-ended-tokens.md). */
  jti: string;
  /** When it expires, in seconds since the epoch (every token carries one). */
  exp: number;
}

export interface TokenService {
  sign(user: Pick<UserRow, "id" | "role" | "tokenVersion">): Promise<string>;
  /** The claims of a valid, unexpired token signed by us, else undefined. */
  verify(token: string): Promise<TokenClaims | undefined>;
}

/** Tokens whose signature was checked, at most this many kept (the oldest forgotten first). */
export const VERIFIED_TOKENS_LIMIT = 10_000;

export function createTokenService(secret: string): TokenService {
  const key = new TextEncoder().encode(secret);
  // A session sends the same token with every request, and jose checks its signature through
  // WebCrypto each time (~0.3 ms of the app's thread, a tenth of a chat send's there). A token
  // string checked once has the same signature and claims for its whole life: only its expiry
  // is checked again, as jose would. Only valid tokens are kept; the account, its token_version
  // and a logout (ended jti) are still read for every request (plugins/auth.ts).
  const verified = new Map<string, TokenClaims>();
  const expired = (claims: TokenClaims) => claims.exp <= Math.floor(Date.now() / 1000);
  const check = async (token: string): Promise<TokenClaims | undefined> => {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ["HS256"],
        // A token without an expiry or an id is not one we issue.
        requiredClaims: ["exp", "jti", "sub"],
      });
      const { sub, role, ver, jti, exp } = payload;
      if (typeof sub !== "string" || !isUuid(sub)) return undefined;
      if (typeof jti !== "string" || !isUuid(jti)) return undefined;
      if (typeof ver !== "number" || typeof exp !== "number") return undefined;
      if (role !== "user" && role !== "admin") return undefined;
      return Object.freeze({ sub, role, ver, jti, exp });
    } catch {
      return undefined;
    }
  };
  return {
    sign(user) {
      return new SignJWT({ role: user.role, ver: user.tokenVersion })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(user.id)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(TOKEN_LIFETIME)
        .sign(key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (!expired(known)) return known;
        verified.delete(token);
        return undefined;
      }
      const claims = await check(token);
      if (!claims) return undefined;
      verified.set(token, claims);
      keepNewest(verified, VERIFIED_TOKENS_LIMIT);
      return claims;
    },
  };
}
