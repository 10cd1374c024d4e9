import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AuthResponse } from "@twinline/contracts";
import { api } from "@/lib/api-client";

/** The auth calls of the user-side spec (section 7). */

export interface LoginInput {
  email: string;
  password: string;
}
export interface SignupInput extends LoginInput {
  name: string;
}

export function login(input: LoginInput) {
  return api.post<AuthResponse>("/api/auth/login", input, { responseType: "json" });
}

export function signup(input: SignupInput) {
  return api.post<AuthResponse>("/api/auth/signup", input, { responseType: "json" });
}

/** Signs in with a Google ID token (the credential of the Google button or one-tap). */
export function googleLogin(token: string) {
  return api.post<AuthResponse>("/api/auth/google", { token }, { responseType: "json" });
}

export function forgotPassword(email: string) {
  return api.post<{ success: true; message: string }>(
    "/api/auth/forgotpassword",
    { email },
    { responseType: "json" },
  );
}

export function resetPassword(token: string, password: string) {
  return api.put<AuthResponse>(
    `/api/auth/resetpassword/${encodeURIComponent(token)}`,
    { password },
    { responseType: "json" },
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
  const answer = await api.get<Partial<AuthConfig>>("/api/auth/config", {
    signal,
    responseType: "json",
  });
  const id = answer?.googleClientId;
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
