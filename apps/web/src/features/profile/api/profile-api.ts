import { passwordChangedResponseSchema, profileResponseSchema } from "@twinline/contracts";
import { api } from "@/lib/api-client";

/** PUT /api/users/profile: the user as saved. */
export function updateProfile(name: string) {
  return api.put("/api/users/profile", { name }, { schema: profileResponseSchema });
}

/** PUT /api/users/password: earlier tokens end, so the answer carries a fresh one. */
export function changePassword(currentPassword: string, newPassword: string) {
  return api.put(
    "/api/users/password",
    { currentPassword, newPassword },
    { schema: passwordChangedResponseSchema },
  );
}
