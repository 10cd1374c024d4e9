import { AGE_MESSAGES } from "@twinline/contracts";
import { HttpError } from "../../../plugins/errors.ts";
import type { GoogleTokenVerifier } from "../google.ts";
import { assertActive, assertOldEnough, createAccount, signedIn } from "./accounts.ts";
import type { AuthDeps } from "./deps.ts";

export const GOOGLE_MESSAGES = {
  notConfigured: "Google sign-in is not configured on this server",
  invalidToken: "Google sign-in failed: the Google token is invalid or has expired",
  emailNotVerified: "Google sign-in failed: your Google e-mail address is not verified",
} as const;

type GoogleIdentity = Awaited<ReturnType<GoogleTokenVerifier["verify"]>>;

/**
 * Signs in with a Google ID token. An account new here is made only with the sign-up form's
 * date of birth, old enough; an existing account (by Google id or e-mail) signs in as before.
 */
export async function googleSignIn(
  deps: AuthDeps,
  idToken: string,
  dateOfBirth?: string,
  refusedBefore = false,
) {
  if (!deps.google) throw new HttpError(400, GOOGLE_MESSAGES.notConfigured);
  let identity: GoogleIdentity;
  try {
    identity = await deps.google.verify(idToken);
  } catch (error) {
    deps.log.info({ err: (error as Error).message }, "Google token refused");
    throw new HttpError(401, GOOGLE_MESSAGES.invalidToken);
  }
  let user = await deps.users.findByGoogleId(identity.googleId);
  if (!user) {
    // Linking by e-mail trusts Google only for an address Google has verified.
    if (!identity.emailVerified) throw new HttpError(401, GOOGLE_MESSAGES.emailNotVerified);
    const byEmail = await deps.users.findByEmail(identity.email);
    if (byEmail) {
      assertActive(byEmail);
      user = await deps.users.update(byEmail.id, {
        googleId: identity.googleId,
        ...(byEmail.profileImage ? {} : { profileImage: identity.picture ?? null }),
      });
    } else {
      if (!dateOfBirth) {
        throw new HttpError(400, AGE_MESSAGES.googleNeedsDateOfBirth, {
          issues: [{ path: "dateOfBirth", message: AGE_MESSAGES.googleNeedsDateOfBirth }],
        });
      }
      await assertOldEnough(deps, dateOfBirth, refusedBefore);
      user = await createAccount(deps, {
        name: googleAccountName(identity),
        email: identity.email,
        passwordHash: null,
        dateOfBirth,
        googleId: identity.googleId,
        profileImage: identity.picture ?? null,
      });
    }
  }
  if (!user) throw new HttpError(401, GOOGLE_MESSAGES.invalidToken);
  assertActive(user);
  return signedIn(deps, user);
}

/** The name of an account made by Google sign-in: Google's, else the address's local part. */
export function googleAccountName(identity: Pick<GoogleIdentity, "name" | "email">): string {
  return identity.name?.trim() || identity.email.split("@")[0] || "Google user";
}
