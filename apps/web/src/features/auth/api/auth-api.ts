import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  authConfigResponseSchema,
  authResponseSchema,
  messageResponseSchema,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";

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
  return api.post("/api/auth/login", input, { schema: authResponseSchema });
}

export function signup(input: SignupInput) {
  return api.post("/api/auth/signup", input, { schema: authResponseSchema });
}

/**
 * Signs in with a Google ID token (the credential of the Google button or one-tap). The sign-up
 * form's date of birth goes with it: a Google account new here is made only with one.
 */
export function googleLogin(token: string, dateOfBirth?: string) {
  return api.post("/api/auth/google", dateOfBirth ? { token, dateOfBirth } : { token }, {
    schema: authResponseSchema,
  });
}

export function forgotPassword(email: string) {
  return api.post("/api/auth/forgotpassword", { email }, { schema: messageResponseSchema });
}

export function resetPassword(token: string, password: string) {
  return api.put(
    `/api/auth/resetpassword/${encodeURIComponent(token)}`,
    { password },
    { schema: authResponseSchema },
  );
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
  const answer = await api.get("/api/auth/config", { signal, schema: authConfigResponseSchema });
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
