/** Texts of the user-side spec (sections 5 and 8) for the profile screen. */
export const PROFILE_TEXT = {
  updateFailedTitle: "Update Failed",
  updateFailed: "Failed to update profile",
  passwordFailed: "Failed to change password",
  passwordTooShort: "Password must be at least 8 characters",
  passwordMismatch: "Passwords don't match",
  currentRequired: "Current password is required",
  newRequired: "New password is required",
  confirmRequired: "Please confirm your new password",
  profileUpdated: "Profile updated successfully",
  passwordUpdated: "Password updated successfully",
  googleAccount:
    "Your account is linked to Google. If you sign in with Google and never set a password, use your Google account to manage your password.",
} as const;
