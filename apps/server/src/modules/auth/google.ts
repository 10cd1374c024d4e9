import type { OAuth2Client, TokenPayload } from "google-auth-library";
import { lazy } from "../../providers/lazy.ts";

// Loaded on the first Google sign-in only: the library takes about 0.4 s to import.
const loadGoogleAuth = lazy(() => import("google-auth-library"));

function googleClient(clientId: string): () => Promise<OAuth2Client> {
  return lazy(async () => new (await loadGoogleAuth()).OAuth2Client({ clientId }));
}

/** What the app needs from a verified Google ID token. */
export interface GoogleIdentity {
  googleId: string;
  email: string;
  emailVerified: boolean;
  name: string | undefined;
  picture: string | undefined;
}

/** Verifies a Google ID token (signature, audience, issuer, expiry); throws when it is not valid. */
export interface GoogleTokenVerifier {
  verify(idToken: string): Promise<GoogleIdentity>;
}

export const GOOGLE_ISSUERS = ["accounts.google.com", "https://accounts.google.com"];

function identityOf(payload: TokenPayload | undefined): GoogleIdentity {
  if (!payload?.sub || !payload.email) throw new Error("The Google token names no account");
  return {
    googleId: payload.sub,
    email: payload.email,
    emailVerified: payload.email_verified === true,
    name: payload.name,
    picture: payload.picture,
  };
}

/** Production: google-auth-library fetches (and caches) Google's signing certificates. */
export function createGoogleVerifier(clientId: string): GoogleTokenVerifier {
  const client = googleClient(clientId);
  return {
    async verify(idToken) {
      const ticket = await (await client()).verifyIdToken({ idToken, audience: clientId });
      return identityOf(ticket.getPayload());
    },
  };
}

/**
 * Tests: the same library checks tokens signed by a key of the test's own, whose public key
 * (PEM) is given; `kid` is the key id the tokens carry in their header. No network.
 */
export function createCertsGoogleVerifier(
  clientId: string,
  publicKeyPem: string,
  kid = "test-key",
): GoogleTokenVerifier {
  const client = googleClient(clientId);
  return {
    async verify(idToken) {
      const ticket = await (await client()).verifySignedJwtWithCertsAsync(
        idToken,
        { [kid]: publicKeyPem },
        clientId,
        GOOGLE_ISSUERS,
      );
      return identityOf(ticket.getPayload());
    },
  };
}
