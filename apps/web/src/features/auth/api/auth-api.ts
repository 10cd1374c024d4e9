import { queryOptions, useQuery } from "@tanstack/react-query";
import { routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api";

/** The auth calls of the user-side spec (section 7). */

export interface LoginInput {
  email: string;
  password: string;
}
export interface SignupInput extends LoginInput {
  name: string;
  /** `YYYY-MM-DD`; the server decides whether it is old enough. */
  dateOfBirth: string;
}

export function login(input: LoginInput) {
  return callRoute(routes.auth.login, { body: input });
}

export function signup(input: SignupInput) {
  return callRoute(routes.auth.signup, { body: input });
}

/**
 * Signs in with a Google ID token (the credential of the Google button or one-tap). The sign-up
 * form's date of birth goes with it: a Google account new here is made only with one.
 */
export function googleLogin(token: string, dateOfBirth?: string) {
  return callRoute(routes.auth.google, {
    body: dateOfBirth ? { token, dateOfBirth } : { token },
  });
}

export function forgotPassword(email: string) {
  return callRoute(routes.auth.forgotPassword, { body: { email } });
}

export function resetPassword(token: string, password: string) {
  return callRoute(routes.auth.resetPassword, { params: { token }, body: { password } });
}

/** Public sign-in configuration: the Google client id, null when Google sign-in is off. */
export interface AuthConfig {
  googleClientId: string | null;
}

export async function getAuthConfig({
  signal,
}: {
  signal?: AbortSignal;
} = {}): Promise<AuthConfig> {
  const answer = await callRoute(routes.auth.config, { signal });
  const id = answer.googleClientId;
  return { googleClientId: typeof id === "string" && id.trim() ? id.trim() : null };
}

export const authConfigQueryOptions = queryOptions({
  queryKey: ["auth-config"],
  queryFn: getAuthConfig,
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});

/** The Google client id, or null while loading, when off, or when the config cannot be read. */
export function useGoogleClientId(): string | null {
  const query = useQuery(authConfigQueryOptions);
  return query.data?.googleClientId ?? null;
}
