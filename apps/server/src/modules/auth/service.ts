import { bindFirst } from "../../lib/bind-first.ts";
import { type AuthServiceOptions, authDeps } from "./service/deps.ts";
import { googleSignIn } from "./service/google-sign-in.ts";
import { drain, forgotPassword, resetPassword } from "./service/password-reset.ts";
import {
  changePassword,
  confirmIdentity,
  giveDateOfBirth,
  me,
  updateProfile,
} from "./service/profile.ts";
import { adminLogin, login, logout, signup, syncAdmin } from "./service/sign-in.ts";

export type { Session } from "./service/accounts.ts";
export { type AuthServiceOptions, sha256 } from "./service/deps.ts";
export { GOOGLE_MESSAGES } from "./service/google-sign-in.ts";

/**
 * Accounts: sign-up and sign-in (service/sign-in.ts, service/google-sign-in.ts), passwords
 * reset by mail (service/password-reset.ts) and the signed-in account's own changes
 * (service/profile.ts), bound to the options and this instance's mail still going out.
 */
export function createAuthService(options: AuthServiceOptions) {
  return bindFirst(authDeps(options), {
    signup,
    login,
    adminLogin,
    google: googleSignIn,
    forgotPassword,
    resetPassword,
    me,
    giveDateOfBirth,
    updateProfile,
    changePassword,
    confirmIdentity,
    logout,
    syncAdmin,
    drain,
  });
}

export type AuthService = ReturnType<typeof createAuthService>;
