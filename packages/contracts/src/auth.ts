import { z } from "zod";
import { AGE_MESSAGES, dateOfBirthSchema } from "./age";
import { subscriptionViewStatusSchema } from "./billing/shared";
import { safeText } from "./text";

/** Password rules of the spec (user-side sections 5 and 9, admin-side section 5). */
export const PASSWORD_RULES = {
  signupMin: 8,
  resetMin: 6,
  profileChangeMin: 8,
  adminChangeMin: 6,
} as const;

export const AUTH_MESSAGES = {
  signupPasswordTooShort: "Password must be at least 8 characters",
  resetPasswordTooShort: "Password must be at least 6 characters long.",
  profilePasswordTooShort: "Password must be at least 8 characters",
  adminPasswordTooShort: "New password must be at least 6 characters long",
  invalidCredentials: "Invalid email or password",
  emailTaken: "An account with this email already exists",
  accountDeactivated: "Your account has been deactivated. Please contact support.",
  wrongCurrentPassword: "Current password is incorrect",
  googleOnlyAccount:
    "This account signs in with Google. Please use your Google account to manage your password.",
  forgotPasswordSent:
    "If an account exists for that email, you will receive password reset instructions.",
  resetTokenInvalid: "Password reset link is invalid or has expired",
  passwordChanged: "Password updated successfully",
} as const;

/**
 * The answer to a request over its limit, with the real wait (the Retry-After it comes with):
 * seconds under a minute, else minutes rounded up ("wait 4 minutes" for 211 s).
 */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const [count, unit] = seconds < 60 ? [seconds, "second"] : [Math.ceil(seconds / 60), "minute"];
  return `Too many attempts. Please wait ${count} ${unit}${count === 1 ? "" : "s"} and try again.`;
}

const email = safeText()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "Please enter a valid email address" }));
const name = safeText()
  .trim()
  .min(1, { error: "Name is required" })
  .max(100, { error: "Name must be at most 100 characters" });

export const USER_ROLES = ["user", "admin"] as const;
export const roleSchema = z.enum(USER_ROLES);
export type Role = z.infer<typeof roleSchema>;

export const userSubscriptionSummarySchema = z.object({
  status: subscriptionViewStatusSchema,
  planId: z.string().nullable(),
  planName: z.string().nullable(),
  endDate: z.string().nullable(),
});
export type UserSubscriptionSummary = z.infer<typeof userSubscriptionSummarySchema>;

/** The user object of the user-side spec (section 3); `_id` and `id` carry the same UUID. */
export const userSchema = z.object({
  _id: z.string(),
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  googleId: z.string().nullable(),
  /** Whether the account has a password (a Google-only one confirms a deletion with Google). */
  hasPassword: z.boolean().optional(),
  profileImage: z.string().nullable(),
  credits: z.number().int(),
  subscription: userSubscriptionSummarySchema,
  createdAt: z.string(),
  /** `YYYY-MM-DD`; null for an account made before sign-up asked (it is asked before chatting). */
  dateOfBirth: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

export const signupRequestSchema = z.object({
  name,
  email,
  password: z
    .string()
    .min(PASSWORD_RULES.signupMin, { error: AUTH_MESSAGES.signupPasswordTooShort }),
  dateOfBirth: dateOfBirthSchema,
});
export const loginRequestSchema = z.object({
  email,
  password: z.string().min(1, { error: "Password is required" }),
});
export const googleLoginRequestSchema = z.object({
  token: z.string().min(1, { error: "Google token is required" }),
  /** The sign-up form's date of birth: needed only when the Google account is new here. */
  dateOfBirth: dateOfBirthSchema.optional(),
});
export const forgotPasswordRequestSchema = z.object({ email });
export const resetPasswordRequestSchema = z.object({
  password: z.string().min(PASSWORD_RULES.resetMin, { error: AUTH_MESSAGES.resetPasswordTooShort }),
});
/** The fan changes the name only: a date of birth in it is refused (only the admin corrects it). */
export const updateProfileRequestSchema = z.object({
  name,
  dateOfBirth: z.never({ error: AGE_MESSAGES.cannotChange }).optional(),
});
export const changePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1, { error: "Current password is required" }),
  newPassword: z
    .string()
    .min(PASSWORD_RULES.profileChangeMin, { error: AUTH_MESSAGES.profilePasswordTooShort }),
});

/** Answer of signup, login, google and resetpassword. */
export const authResponseSchema = z.object({
  success: z.literal(true),
  token: z.string(),
  user: userSchema,
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const meResponseSchema = z.object({ success: z.literal(true), data: userSchema });
export const profileResponseSchema = z.object({ success: z.literal(true), user: userSchema });
export const messageResponseSchema = z.object({ success: z.literal(true), message: z.string() });

/** Answer of PUT /api/users/password: earlier tokens end, so a fresh one comes with it. */
export const passwordChangedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  token: z.string(),
});

/** GET /api/auth/config: public sign-in configuration (null hides the Google button). */
export const authConfigResponseSchema = z.object({ googleClientId: z.string().nullable() });
export type AuthConfigResponse = z.infer<typeof authConfigResponseSchema>;
