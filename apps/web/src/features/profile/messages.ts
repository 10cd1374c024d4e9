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

/** "Download my data" and "Delete account" (issue 26; the spec has neither). */
export const PRIVACY_TEXT = {
  exportTitle: "Download my data",
  exportDescription:
    "A ZIP with everything we keep about you: your profile, conversations and messages, calls with their transcripts, what the persona remembers, credits, payments and subscriptions.",
  exportButton: "Download my data",
  exportAsking: "Asking...",
  exportQueued:
    "We are preparing your data. We will e-mail you when it is ready; you can leave this page.",
  exportReady: (until: string) => `Your data is ready to download until ${until}.`,
  exportSaveButton: "Download ZIP",
  exportSaving: "Downloading...",
  exportFailed: "The last export failed. Please ask again.",
  exportExpired: "Your last export has expired. Ask for a new one.",
  exportNone: "You have not asked for a copy of your data yet.",
  exportAskFailed: "Failed to ask for your data",
  exportDownloadFailed: "Failed to download your data",
  exportLoadFailed: "Failed to load your data export",
  deleteTitle: "Delete account",
  deleteDescription:
    "Deletes your account for good: your messages, calls, memory and uploads are erased and any subscription is canceled at once. Payment records the law requires us to keep stay, without your name or e-mail.",
  deleteButton: "Delete account",
  deleteDialogTitle: "Delete your account?",
  deleteDialogDescription:
    "This cannot be undone. Any subscription is canceled now, with no further charge, and a live call ends.",
  deletePasswordLabel: "Your password",
  deleteGoogleHint: "Your account signs in with Google: sign in with Google again to confirm.",
  deleteGoogleConfirmed: "Google sign-in confirmed.",
  deleteGoogleUnavailable: "Google sign-in is not available right now. Please try again later.",
  deleteWordLabel: "Type DELETE to confirm",
  deleteSubmit: "Delete my account",
  deleteFailed: "Failed to delete your account",
} as const;
