import { z } from "zod";
import { paginationSchema } from "./api";
import { AUTH_MESSAGES, PASSWORD_RULES, roleSchema } from "./auth";
import { currencySchema, PLAN_INTERVALS, subscriptionViewStatusSchema } from "./billing/index";
import { safeText } from "./text";

export const adminLoginRequestSchema = z.object({
  email: safeText()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: "Please enter a valid email address" })),
  password: z.string().min(1, { error: "Password is required" }),
});

export const adminSchema = z.object({
  _id: z.string(),
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.literal("admin"),
});
export type Admin = z.infer<typeof adminSchema>;

export const adminLoginResponseSchema = z.object({
  success: z.literal(true),
  token: z.string(),
  admin: adminSchema,
});
export const verifyTokenResponseSchema = z.object({
  success: z.literal(true),
  valid: z.boolean(),
  admin: adminSchema,
});
export const adminProfileResponseSchema = z.object({ success: z.literal(true), data: adminSchema });

export const adminChangePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1, { error: "All fields are required" }),
  newPassword: z
    .string()
    .min(PASSWORD_RULES.adminChangeMin, { error: AUTH_MESSAGES.adminPasswordTooShort }),
});

export const USER_SORT_FIELDS = [
  "createdAt",
  "name",
  "email",
  "lastLogin",
  "lastActive",
  "credits",
] as const;

export const adminUsersQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  sortBy: z.enum(USER_SORT_FIELDS).default("createdAt"),
  sortOrder: z.coerce
    .number()
    .int()
    .refine((v) => v === 1 || v === -1, { error: "sortOrder must be 1 or -1" })
    .default(-1),
  search: safeText().trim().max(200).optional(),
  status: z.enum(["all", "active", "inactive"]).default("all"),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

export const adminUserListItemSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  profileImage: z.string().nullable(),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
  /** "Last Active": the last sign-in, message or call (null: none yet). */
  lastActive: z.string().nullable(),
  credits: z.number().int(),
  isActive: z.boolean(),
  role: roleSchema,
  subscription: z.object({
    status: subscriptionViewStatusSchema,
    planId: z.string().nullable(),
  }),
});
export type AdminUserListItem = z.infer<typeof adminUserListItemSchema>;

export const adminUsersResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(adminUserListItemSchema),
  pagination: paginationSchema,
});

/** User detail of the admin-side spec (section 3). */
export const adminUserDetailSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  profileImage: z.string().nullable(),
  isActive: z.boolean(),
  role: roleSchema,
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
  /** "Last Active": the last sign-in, message or call (null: none yet). */
  lastActive: z.string().nullable(),
  dailyMessageCount: z.number().int(),
  credits: z.number().int(),
  /** Successful payments in USD (major units); other currencies in totalSpentByCurrency. */
  totalSpent: z.number(),
  /** Every currency the user paid in, USD first (decision 0036: never added together). */
  totalSpentByCurrency: z
    .array(z.object({ currency: currencySchema, value: z.number() }))
    .optional(),
  googleId: z.string().nullable(),
  /** `YYYY-MM-DD`, or null when the account predates the age gate; only the admin corrects it. */
  dateOfBirth: z.string().nullable(),
  subscription: z
    .object({
      status: subscriptionViewStatusSchema,
      plan: z
        .object({
          name: z.string(),
          price: z.number(),
          /** What the subscriber pays in (their subscription's, not an assumed USD). */
          currency: currencySchema,
          /** Whole months (1 monthly, 3 quarterly); 0 for weekly and daily plans. */
          duration: z.number().int(),
          interval: z.enum(PLAN_INTERVALS),
          intervalCount: z.number().int(),
        })
        .nullable(),
      currentPeriodStart: z.string().nullable(),
      currentPeriodEnd: z.string().nullable(),
      autoRenew: z.boolean(),
      cancelAtPeriodEnd: z.boolean(),
      stripeSubscriptionId: z.string().nullable(),
    })
    .nullable(),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminUserDetailResponseSchema = z.object({
  success: z.literal(true),
  data: adminUserDetailSchema,
});

export const userStatusActionSchema = z.object({
  action: z.enum(["activate", "deactivate", "suspend"]),
});

const metric = z.object({ value: z.number() });
/** User-growth figures; billing adds the revenue and paid-user figures to the same answer. */
export const userGrowthSchema = z.object({
  totalUsers: metric,
  todayUsers: metric,
  yesterdayUsers: metric,
  thisMonthUsers: metric,
  lastMonthUsers: metric,
});
export type UserGrowth = z.infer<typeof userGrowthSchema>;

/** Answer of PUT /api/admin/change-password: earlier tokens end, so a fresh one comes with it. */
export const adminPasswordChangedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  token: z.string(),
});

export const adminUserIdParamsSchema = z.object({ userId: z.uuid({ error: "Invalid user id" }) });

/** Answer of PUT /api/admin/users/{id}/status: the message and the user as it now is. */
export const userStatusResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: adminUserDetailSchema,
});

/** GET /api/admin/dashboard/metrics; billing adds its figures to `data`. */
export const adminDashboardMetricsResponseSchema = z.object({
  success: z.literal(true),
  data: userGrowthSchema,
});
