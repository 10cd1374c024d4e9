import { z } from "zod";
import {
  adminChangePasswordRequestSchema,
  adminLoginRequestSchema,
  adminLoginResponseSchema,
  adminPasswordChangedResponseSchema,
  adminProfileResponseSchema,
  verifyTokenResponseSchema,
} from "../admin";
import { dateOfBirthRequestSchema } from "../age";
import {
  authConfigResponseSchema,
  authResponseSchema,
  changePasswordRequestSchema,
  forgotPasswordRequestSchema,
  googleLoginRequestSchema,
  loginRequestSchema,
  meResponseSchema,
  messageResponseSchema,
  passwordChangedResponseSchema,
  profileResponseSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
  updateProfileRequestSchema,
} from "../auth";
import { logoutAddress, meAddress } from "./auth-addresses";
import { defineRoute } from "./define";

const tags = ["auth"];
const errors = [400, 401, 403, 409, 429];

/** The user-side account calls (user-side spec, section 7; apps/server/src/modules/auth). */
export const authRoutes = {
  config: defineRoute({
    method: "GET",
    path: "/api/auth/config",
    access: "public",
    tags,
    summary: "Public sign-in configuration (the Google client id, or null)",
    response: authConfigResponseSchema,
  }),
  signup: defineRoute({
    method: "POST",
    path: "/api/auth/signup",
    access: "public",
    tags,
    summary:
      "Creates an account (granting the default credits) and signs it in; refused (403, " +
      "nothing stored) under the minimum age",
    body: signupRequestSchema,
    status: 201,
    response: authResponseSchema,
    errors,
  }),
  login: defineRoute({
    method: "POST",
    path: "/api/auth/login",
    access: "public",
    tags,
    summary: "Signs in with e-mail and password",
    body: loginRequestSchema,
    response: authResponseSchema,
    errors,
  }),
  google: defineRoute({
    method: "POST",
    path: "/api/auth/google",
    access: "public",
    tags,
    summary:
      "Signs in with a Google ID token, creating (with the date of birth, old enough) or " +
      "linking the account",
    body: googleLoginRequestSchema,
    response: authResponseSchema,
    errors,
  }),
  forgotPassword: defineRoute({
    method: "POST",
    path: "/api/auth/forgotpassword",
    access: "public",
    tags,
    summary: "Mails a password reset link (same answer whether or not the account exists)",
    body: forgotPasswordRequestSchema,
    response: messageResponseSchema,
    errors,
  }),
  resetPassword: defineRoute({
    method: "PUT",
    path: "/api/auth/resetpassword/:token",
    access: "public",
    tags,
    summary: "Sets a new password with a reset link's token, and signs in",
    params: z.object({ token: z.string() }),
    body: resetPasswordRequestSchema,
    response: authResponseSchema,
    errors,
  }),
  me: defineRoute({
    ...meAddress,
    tags,
    summary: "The signed-in user",
    response: meResponseSchema,
    errors,
  }),
  logout: defineRoute({
    ...logoutAddress,
    tags,
    summary: "Ends this session's token on the server (every instance), until its expiry",
    response: messageResponseSchema,
    errors,
  }),
} as const;

/** The signed-in user's own account (apps/server/src/modules/auth/routes.ts). */
export const userAccountRoutes = {
  profile: defineRoute({
    method: "PUT",
    path: "/api/users/profile",
    access: "fan",
    tags: ["users"],
    summary: "Changes the signed-in user's name",
    body: updateProfileRequestSchema,
    response: profileResponseSchema,
    errors,
  }),
  dateOfBirth: defineRoute({
    method: "PUT",
    path: "/api/users/date-of-birth",
    access: "fan",
    tags: ["users"],
    summary:
      "Gives the date of birth of an account made before sign-up asked (409 once one is " +
      "stored: only the admin corrects it)",
    body: dateOfBirthRequestSchema,
    response: profileResponseSchema,
    errors,
  }),
  password: defineRoute({
    method: "PUT",
    path: "/api/users/password",
    access: "fan",
    tags: ["users"],
    summary: "Changes the password; earlier tokens end and a fresh one is answered",
    body: changePasswordRequestSchema,
    response: passwordChangedResponseSchema,
    errors,
  }),
} as const;

const adminTags = ["admin"];
const adminErrors = [400, 401, 403, 404, 429];

/** The admin's sign-in and session (apps/server/src/modules/admin/routes.ts). */
export const adminSessionRoutes = {
  login: defineRoute({
    method: "POST",
    path: "/api/admin/login",
    access: "public",
    tags: adminTags,
    summary: "Signs an admin in",
    body: adminLoginRequestSchema,
    response: adminLoginResponseSchema,
    errors: adminErrors,
  }),
  verifyToken: defineRoute({
    method: "GET",
    path: "/api/admin/verify-token",
    access: "admin",
    tags: adminTags,
    summary: "Whether the admin token is valid (401 when not)",
    response: verifyTokenResponseSchema,
    errors: adminErrors,
  }),
  profile: defineRoute({
    method: "GET",
    path: "/api/admin/profile",
    access: "admin",
    tags: adminTags,
    summary: "The signed-in admin",
    response: adminProfileResponseSchema,
    errors: adminErrors,
  }),
  changePassword: defineRoute({
    method: "PUT",
    path: "/api/admin/change-password",
    access: "admin",
    tags: adminTags,
    summary: "Changes the admin's password; earlier tokens end and a fresh one is answered",
    body: adminChangePasswordRequestSchema,
    response: adminPasswordChangedResponseSchema,
    errors: adminErrors,
  }),
  logout: defineRoute({
    method: "POST",
    path: "/api/admin/logout",
    access: "admin",
    tags: adminTags,
    summary: "Ends this admin session's token on the server (every instance), until its expiry",
    response: messageResponseSchema,
    errors: adminErrors,
  }),
} as const;
