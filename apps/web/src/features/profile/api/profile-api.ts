import { routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api";

/** PUT /api/users/profile: the user as saved. */
export function updateProfile(name: string) {
  return callRoute(routes.account.profile, { body: { name } });
}

/** PUT /api/users/password: earlier tokens end, so the answer carries a fresh one. */
export function changePassword(currentPassword: string, newPassword: string) {
  return callRoute(routes.account.password, { body: { currentPassword, newPassword } });
}
