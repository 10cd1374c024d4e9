import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";
import { createCertsGoogleVerifier, type GoogleTokenVerifier } from "../src/modules/auth/google.ts";

export const TEST_GOOGLE_CLIENT_ID = "test-client.apps.googleusercontent.com";
const KID = "test-key";

/** A key pair standing in for Google's: tokens signed here, checked by the real library. */
export interface FakeGoogle {
  verifier: GoogleTokenVerifier;
  sign(
    claims: GoogleClaims,
    options?: { audience?: string; expiresInSeconds?: number },
  ): Promise<string>;
}

export interface GoogleClaims {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  iss?: string;
}

export function fakeGoogle(clientId = TEST_GOOGLE_CLIENT_ID): FakeGoogle {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = (publicKey as KeyObject).export({ type: "spki", format: "pem" }).toString();
  return {
    verifier: createCertsGoogleVerifier(clientId, pem, KID),
    async sign(claims, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      const expiresIn = options.expiresInSeconds ?? 3600;
      const { iss, ...rest } = claims;
      return new SignJWT({ email_verified: true, ...rest })
        .setProtectedHeader({ alg: "RS256", kid: KID, typ: "JWT" })
        .setIssuer(iss ?? "https://accounts.google.com")
        .setAudience(options.audience ?? clientId)
        .setSubject(claims.sub)
        .setIssuedAt(expiresIn > 0 ? now : now - 7200)
        .setExpirationTime(now + expiresIn)
        .sign(privateKey);
    },
  };
}
