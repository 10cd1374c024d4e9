import { zodResolver } from "@hookform/resolvers/zod";
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation } from "@tanstack/react-query";
import { adminChangePasswordRequestSchema } from "@twinline/contracts";
import { LoaderCircle, X } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast";
import { z } from "zod";
import { buttonClasses } from "@/components/ui/button";
import { useFocusReturn } from "@/components/ui/use-focus-return";
import { ApiError, errorMessage } from "@/lib/api-client";
import { CHANGE_PASSWORD_FAILED, changeAdminPassword } from "../api/admin-auth";
import { type ChangePasswordValues, changePasswordError } from "../api/password-rules";
import { PasswordInput } from "./password-input";

const EMPTY: ChangePasswordValues = { currentPassword: "", newPassword: "", confirmPassword: "" };

/**
 * The three fields, held to the spec's rules in the spec's order (one message at a time), then
 * to the contract's request schema (admin-side spec, section 5).
 */
const changePasswordFormSchema = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() })
  .superRefine((values, ctx) => {
    const rule = changePasswordError(values);
    if (rule) ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: rule });
  })
  .transform(({ currentPassword, newPassword }) => ({ currentPassword, newPassword }))
  .pipe(adminChangePasswordRequestSchema);

const FIELDS: { name: keyof ChangePasswordValues; label: string; autoComplete: string }[] = [
  { name: "currentPassword", label: "Current Password", autoComplete: "current-password" },
  { name: "newPassword", label: "New Password", autoComplete: "new-password" },
  { name: "confirmPassword", label: "Confirm New Password", autoComplete: "new-password" },
];

interface ChangePasswordDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The layout's Change Password dialog (admin-side spec, sections 2 and 5): all fields required,
 * the new passwords must match and be at least 6 characters; Save stays disabled until they do.
 */
export function ChangePasswordDialog({ open, onOpenChange }: ChangePasswordDialogProps) {
  const focusReturn = useFocusReturn();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-950/50 backdrop-blur-sm" />
        <Dialog.Content
          {...focusReturn}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-stone-200 bg-white p-6 shadow-2xl dark:border-white/10 dark:bg-stone-900"
        >
          {/* Mounted only while open, so every opening starts empty. */}
          {open && <ChangePasswordForm onDone={() => onOpenChange(false)} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const {
    register,
    handleSubmit,
    watch,
    formState: { isSubmitted },
  } = useForm({ resolver: zodResolver(changePasswordFormSchema), defaultValues: EMPTY });
  // The rule shows as soon as the admin types (or tries to save), one message at a time.
  const ruleError = changePasswordError(watch());
  const mutation = useMutation({
    mutationFn: changeAdminPassword,
    onSuccess: (message) => {
      toast.success(message);
      onDone();
    },
    onError: (error) => {
      // The server's reason when it gives one it may show (e.g. a wrong current password).
      const reason =
        error instanceof ApiError && error.kind === "http" && error.status < 500
          ? errorMessage(error, "")
          : null;
      setFailure(
        reason && reason !== CHANGE_PASSWORD_FAILED
          ? `${CHANGE_PASSWORD_FAILED}: ${reason}`
          : CHANGE_PASSWORD_FAILED,
      );
    },
  });

  const onSubmit = handleSubmit((request) => {
    if (mutation.isPending) return;
    setFailure(null);
    mutation.mutate(request);
  });

  const shownError = touched || isSubmitted ? ruleError : null;
  return (
    <form onSubmit={onSubmit} noValidate>
      <div className="flex items-start justify-between gap-4">
        <div>
          <Dialog.Title className="font-display text-lg font-bold text-stone-900 dark:text-white">
            Change Password
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Enter your current password and choose a new one of at least 6 characters.
          </Dialog.Description>
        </div>
        <Dialog.Close
          aria-label="Close"
          className="-mt-1 -mr-2 inline-flex size-9 shrink-0 items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 hover:text-stone-900 dark:text-stone-400 dark:hover:bg-white/10 dark:hover:text-white"
        >
          <X aria-hidden="true" className="size-5" />
        </Dialog.Close>
      </div>
      <div className="mt-5 space-y-4">
        {FIELDS.map((field) => (
          <div key={field.name}>
            <label
              htmlFor={`${id}-${field.name}`}
              className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
            >
              {field.label}
            </label>
            <PasswordInput
              id={`${id}-${field.name}`}
              autoComplete={field.autoComplete}
              aria-describedby={shownError ? `${id}-error` : undefined}
              {...register(field.name, {
                onChange: () => {
                  setTouched(true);
                  setFailure(null);
                },
              })}
            />
          </div>
        ))}
      </div>
      {shownError && (
        <p
          id={`${id}-error`}
          data-testid="change-password-rule"
          className="mt-4 text-sm text-red-600 dark:text-red-400"
        >
          {shownError}
        </p>
      )}
      {failure && (
        <p
          role="alert"
          className="mt-4 rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
        >
          {failure}
        </p>
      )}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Dialog.Close className={buttonClasses("secondary", "md")}>Cancel</Dialog.Close>
        <button
          type="submit"
          disabled={ruleError !== null || mutation.isPending}
          className={buttonClasses("primary", "md")}
        >
          {mutation.isPending && (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          )}
          {mutation.isPending ? "Saving..." : "Change Password"}
        </button>
      </div>
    </form>
  );
}
