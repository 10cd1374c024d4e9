import { zodResolver } from "@hookform/resolvers/zod";
import { changePasswordRequestSchema, updateProfileRequestSchema } from "@twinline/contracts";
import { Info, KeyRound, Save, UserRound } from "lucide-react";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast";
import { z } from "zod";
import { FormMessage, PasswordField, TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { errorMessage } from "@/lib/api-client";
import { useAuth, useCurrentUser } from "@/lib/auth/auth-provider";
import { STORAGE_KEYS, writeStorage } from "@/lib/storage";
import { changePassword, updateProfile } from "../api/profile-api";
import { PROFILE_TEXT } from "../messages";
import { DataExportSection } from "./data-export-section";
import { DeleteAccountSection } from "./delete-account-section";
import { MemorySection } from "./memory-section";
import { NotificationsSection } from "./notifications-section";
import { ProfileCard } from "./profile-card";

/** "Update Failed" with the server's message, else the fallback (spec, section 8). */
function failureToast(error: unknown, fallback: string) {
  const message = errorMessage(error, fallback);
  toast.error(
    <span>
      <strong className="block">{PROFILE_TEXT.updateFailedTitle}</strong>
      {message}
    </span>,
  );
}

/** Name (saved only when non-empty and changed) and the read-only e-mail. */
function ProfileDetails() {
  const user = useCurrentUser();
  const { setUser } = useAuth();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(updateProfileRequestSchema),
    defaultValues: { name: user.name },
    mode: "onChange",
  });
  const trimmed = watch("name").trim();
  const canSave = trimmed.length > 0 && trimmed !== user.name && !isSubmitting;

  const submit = handleSubmit(async ({ name }) => {
    if (name === user.name) return;
    try {
      const answer = await updateProfile(name);
      setUser(answer.user);
      reset({ name: answer.user.name });
      toast.success(PROFILE_TEXT.profileUpdated);
    } catch (error) {
      failureToast(error, PROFILE_TEXT.updateFailed);
    }
  });

  return (
    <ProfileCard
      icon={<UserRound aria-hidden="true" className="size-5" />}
      title="Profile Information"
      description="Your name as the persona sees it."
    >
      <form onSubmit={submit} noValidate className="space-y-4" data-testid="profile-form">
        <TextField
          label="Name"
          autoComplete="name"
          maxLength={100}
          error={errors.name?.message}
          {...register("name")}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          value={user.email}
          readOnly
          hint="Your e-mail address cannot be changed."
        />
        <SubmitButton
          busy={isSubmitting}
          disabled={!canSave}
          icon={<Save aria-hidden="true" className="size-4" />}
          label="Save Changes"
          busyLabel="Saving..."
        />
      </form>
    </ProfileCard>
  );
}

/** The contract's change-password body with the spec's messages, and its confirmation. */
const passwordFormSchema = changePasswordRequestSchema
  .extend({
    newPassword: z
      .string()
      .min(1, { error: PROFILE_TEXT.newRequired })
      .pipe(changePasswordRequestSchema.shape.newPassword),
    confirmPassword: z.string().min(1, { error: PROFILE_TEXT.confirmRequired }),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    path: ["confirmPassword"],
    error: PROFILE_TEXT.passwordMismatch,
  });

/** Current, new (8+) and confirmation; Google-linked accounts are pointed to Google. */
function PasswordChange() {
  const user = useCurrentUser();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(passwordFormSchema),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });

  const submit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      const answer = await changePassword(currentPassword, newPassword);
      // The change ends earlier tokens: the session goes on with the fresh one.
      writeStorage(STORAGE_KEYS.userToken, answer.token);
      reset();
      toast.success(answer.message || PROFILE_TEXT.passwordUpdated);
    } catch (error) {
      failureToast(error, PROFILE_TEXT.passwordFailed);
    }
  });

  return (
    <ProfileCard
      icon={<KeyRound aria-hidden="true" className="size-5" />}
      title="Change Password"
      description="Use at least 8 characters."
    >
      {user.googleId ? (
        <FormMessage tone="info" className="mb-4 flex gap-2">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{PROFILE_TEXT.googleAccount}</span>
        </FormMessage>
      ) : null}
      <form onSubmit={submit} noValidate className="space-y-4" data-testid="password-form">
        <PasswordField
          label="Current Password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register("currentPassword")}
        />
        <PasswordField
          label="New Password"
          autoComplete="new-password"
          error={errors.newPassword?.message}
          {...register("newPassword")}
        />
        <PasswordField
          label="Confirm New Password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register("confirmPassword")}
        />
        <SubmitButton
          busy={isSubmitting}
          icon={<KeyRound aria-hidden="true" className="size-4" />}
          label="Update Password"
          busyLabel="Updating..."
        />
      </form>
    </ProfileCard>
  );
}

/** /dashboard/profile: name edit, read-only e-mail, password change, memory, data, deletion. */
export function ProfilePage() {
  const { refreshUser } = useAuth();
  useDocumentTitle("My Profile · Twinline");
  useEffect(() => {
    refreshUser().catch(() => {});
  }, [refreshUser]);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="font-display text-2xl font-bold text-stone-900 sm:text-3xl dark:text-white">
          My Profile
        </h1>
        <p className="mt-1 text-stone-600 dark:text-stone-400">
          Manage your account details and password, download your data or delete your account.
        </p>
      </div>
      <ProfileDetails />
      <PasswordChange />
      <MemorySection />
      <NotificationsSection />
      <DataExportSection />
      <DeleteAccountSection />
    </div>
  );
}
