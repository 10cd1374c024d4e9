import { AUTH_MESSAGES, PASSWORD_RULES } from "@twinline/contracts";

/** Change-password messages of the admin-side spec (section 5), spelled exactly. */
export const CHANGE_PASSWORD_RULES = {
  required: "All fields are required",
  mismatch: "New passwords do not match",
  tooShort: AUTH_MESSAGES.adminPasswordTooShort,
  minLength: PASSWORD_RULES.adminChangeMin,
} as const;

export interface ChangePasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The first rule the values break, in the spec's order, or null when they may be sent. */
export function changePasswordError(values: ChangePasswordValues): string | null {
  if (!values.currentPassword || !values.newPassword || !values.confirmPassword) {
    return CHANGE_PASSWORD_RULES.required;
  }
  if (values.newPassword !== values.confirmPassword) return CHANGE_PASSWORD_RULES.mismatch;
  if (values.newPassword.length < CHANGE_PASSWORD_RULES.minLength) {
    return CHANGE_PASSWORD_RULES.tooShort;
  }
  return null;
}
