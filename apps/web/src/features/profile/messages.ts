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

/** The memory section (issue 19; the spec has no memory screen): the persona named from settings. */
export const MEMORY_TEXT = {
  title: (name: string) => `What ${name} remembers`,
  description: (name: string) =>
    `What ${name} recalls of your chats and calls. Deleting something, or turning memory off, applies from the next reply.`,
  switchLabel: (name: string) => `Let ${name} remember me`,
  switchDescription: (name: string) =>
    `When off, ${name} sees only the recent conversation: no summary and nothing recalled from earlier.`,
  summaryHeading: "Summary",
  noSummary: "No summary yet.",
  deleteSummary: "Delete the summary",
  factsHeading: "Things you told",
  noFacts: (name: string) => `Nothing yet. What you tell ${name} about yourself shows up here.`,
  deleteFact: (content: string) => `Forget: ${content}`,
  onCall: "On a call",
  inChat: "In the chat",
  failed: "Failed to update memory",
  failedLoad: "Failed to load what is remembered",
} as const;
