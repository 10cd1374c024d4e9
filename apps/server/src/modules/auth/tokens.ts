import { jwtVerify, SignJWT } from "jose";
import type { UserRow } from "../../db/schema/index.ts";

/** How long a session token lasts; a password change or deactivation ends it sooner. */
export const TOKEN_LIFETIME = "7d";

export interface TokenClaims {
  /** The user's id. */
  sub: string;
  role: "user" | "admin";
  /** The user's token_version when the token was issued. */
  ver: number;
}

export interface TokenService {
  sign(user: Pick<UserRow, "id" | "role" | "tokenVersion">): Promise<string>;
  /** The claims of a valid, unexpired token signed by us, else undefined. */
  verify(token: string): Promise<TokenClaims | undefined>;
}

export function createTokenService(secret: string): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    sign(user) {
      return new SignJWT({ role: user.role, ver: user.tokenVersion })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(user.id)
        .setIssuedAt()
        .setExpirationTime(TOKEN_LIFETIME)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"] });
        const { sub, role, ver } = payload;
        if (typeof sub !== "string" || typeof ver !== "number") return undefined;
        if (role !== "user" && role !== "admin") return undefined;
        return { sub, role, ver };
      } catch {
        return undefined;
      }
    },
  };
}
