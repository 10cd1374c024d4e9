import type { User } from "@twinline/contracts";
import { api } from "@/lib/api-client";

export function updateProfile(name: string) {
  return api.put<{ success: true; user: User }>(
    "/api/users/profile",
    { name },
    { responseType: "json" },
  );
}

export function changePassword(currentPassword: string, newPassword: string) {
  return api.put<{ success: true; message?: string; token?: string }>(
    "/api/users/password",
    { currentPassword, newPassword },
    { responseType: "json" },
  );
}
