/** Texts of the user-side spec (sections 2, 5 and 8), spelled as they must appear. */
export const AUTH_TEXT = {
  loginFailed: "Failed to login. Please try again.",
  signupFailed: "Failed to sign up. Please try again.",
  googleFailed: "Google login failed. Please try again.",
  googleWidgetFailedLogin: "Google login failed. Please try again or use email login",
  googleWidgetFailedSignup: "Google login failed. Please try again or use email signup",
  forgotEmpty: "Please enter your email address",
  forgotFailedPage: "Failed to process your request. Please try again.",
  forgotFailedModal: "Failed to send reset link. Please try again.",
  forgotSentModalTitle: "Email Sent!",
  forgotSentPageTitle: "Check your email",
  forgotSentBody:
    "If an account exists for that email, you will receive password reset instructions.",
  resetTokenEmpty: "Invalid reset token",
  resetTokenFormat: "Invalid password reset token format.",
  resetTooShort: "Password must be at least 6 characters long.",
  resetMismatch: "Passwords do not match.",
  resetFailed: "Failed to reset password. The token may be invalid or expired.",
} as const;

/** Reset tokens are at least this long (spec, section 9). */
export const RESET_TOKEN_MIN_LENGTH = 20;
/** After a successful reset the page goes to /dashboard after this long. */
export const RESET_REDIRECT_MS = 3000;

export type AuthMode = "login" | "signup";

/** Google's sign-in script that has not loaded after this long counts as unreachable. */
export const GOOGLE_SCRIPT_TIMEOUT_MS = 10_000;
