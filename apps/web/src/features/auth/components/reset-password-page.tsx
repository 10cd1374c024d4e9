import { zodResolver } from "@hookform/resolvers/zod";
import { PASSWORD_RULES, resetPasswordRequestSchema } from "@twinline/contracts";
import { CircleCheck, House, KeyRound, LayoutDashboard, LinkIcon } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { z } from "zod";
import { buttonClasses } from "@/components/ui/button";
import { FormMessage, PasswordField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { errorMessage } from "@/lib/api-client";
import { useAuth } from "@/lib/auth/auth-provider";
import { resetPassword } from "../api/auth-api";
import { AUTH_TEXT, RESET_REDIRECT_MS, RESET_TOKEN_MIN_LENGTH } from "../messages";
import { AuthShell } from "./auth-shell";
import { IconBadge } from "./icon-badge";

/** The contract's password, a confirmation that must match it (checked once the password passes). */
const resetFormSchema = resetPasswordRequestSchema
  .extend({ confirmPassword: z.string() })
  .refine((values) => values.password === values.confirmPassword, {
    path: ["confirmPassword"],
    error: AUTH_TEXT.resetMismatch,
    when: (payload) => payload.issues.length === 0,
  });

/** Why a reset token cannot be used before asking the server, or null when it may be. */
export function resetTokenProblem(token: string | undefined): string | null {
  const value = token?.trim() ?? "";
  if (!value) return AUTH_TEXT.resetTokenEmpty;
  if (value.length < RESET_TOKEN_MIN_LENGTH) return AUTH_TEXT.resetTokenFormat;
  return null;
}

/** Whether a server message says the link cannot be used any more. */
function isInvalidLinkMessage(message: string): boolean {
  return /invalid|expired/i.test(message);
}

type View = { kind: "form" } | { kind: "invalid"; reason: string } | { kind: "done" };

/** `/reset-password/{resettoken}`: choose a new password with the e-mailed link. */
export function ResetPasswordPage({ token }: { token: string | undefined }) {
  const problem = resetTokenProblem(token);
  const [view, setView] = useState<View>(
    problem ? { kind: "invalid", reason: problem } : { kind: "form" },
  );

  useDocumentTitle("Reset Password · Twinline");

  if (view.kind === "invalid") return <InvalidLink reason={view.reason} />;
  if (view.kind === "done") return <ResetDone />;
  return (
    <ResetForm
      token={token?.trim() ?? ""}
      onDone={() => setView({ kind: "done" })}
      onInvalid={(reason) => setView({ kind: "invalid", reason })}
    />
  );
}

function Shell({ children }: { children: ReactNode }) {
  return <AuthShell testId="reset-password">{children}</AuthShell>;
}

function InvalidLink({ reason }: { reason: string }) {
  return (
    <Shell>
      <div className="text-center" data-testid="reset-invalid">
        <IconBadge tone="bad">
          <LinkIcon aria-hidden="true" className="size-7" />
        </IconBadge>
        <h1 className="mt-4 font-display text-2xl font-bold text-stone-900 dark:text-white">
          Invalid Reset Link
        </h1>
        <p className="mt-2 text-stone-600 dark:text-stone-300">{reason}</p>
        <p className="mt-2 text-sm text-stone-500 dark:text-stone-400">
          Reset links work once and expire after an hour. You can ask for a new one from the login
          screen.
        </p>
        <Link to="/" className={buttonClasses("primary", "md", "mt-6 w-full")}>
          <House aria-hidden="true" className="size-4" />
          Return to Home
        </Link>
      </div>
    </Shell>
  );
}

function ResetDone() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate("/dashboard", { replace: true }), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <Shell>
      <div className="text-center" data-testid="reset-done">
        <IconBadge tone="ok">
          <CircleCheck aria-hidden="true" className="size-7" />
        </IconBadge>
        <h1 className="mt-4 font-display text-2xl font-bold text-stone-900 dark:text-white">
          Password Reset Successful
        </h1>
        <p role="status" className="mt-2 text-stone-600 dark:text-stone-300">
          Your password has been changed and you are logged in. Taking you to your dashboard in 3
          seconds...
        </p>
        <Link to="/dashboard" replace className={buttonClasses("primary", "md", "mt-6 w-full")}>
          <LayoutDashboard aria-hidden="true" className="size-4" />
          Go to Dashboard
        </Link>
      </div>
    </Shell>
  );
}

function ResetForm({
  token,
  onDone,
  onInvalid,
}: {
  token: string;
  onDone: () => void;
  onInvalid: (reason: string) => void;
}) {
  const { signIn } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(resetFormSchema),
    defaultValues: { password: "", confirmPassword: "" },
  });

  const send = handleSubmit(async ({ password }) => {
    try {
      signIn(await resetPassword(token, password));
      setDone(true);
      onDone();
    } catch (err) {
      // Only the server's own message decides; the default text mentions "invalid" itself.
      const message = errorMessage(err, "");
      if (message && isInvalidLinkMessage(message)) onInvalid(message);
      else setError(message || AUTH_TEXT.resetFailed);
    }
  });
  const submitting = isSubmitting || done;

  return (
    <Shell>
      <IconBadge tone="brand">
        <KeyRound aria-hidden="true" className="size-7" />
      </IconBadge>
      <h1 className="mt-4 text-center font-display text-2xl font-bold text-stone-900 dark:text-white">
        Reset your password
      </h1>
      <p className="mt-2 text-center text-sm text-stone-600 dark:text-stone-400">
        Choose a new password for your account.
      </p>
      <form
        onSubmit={(event) => {
          setError(null);
          void send(event);
        }}
        noValidate
        className="mt-6 space-y-4"
        data-testid="reset-form"
      >
        {error ? <FormMessage>{error}</FormMessage> : null}
        <PasswordField
          label="New Password"
          autoComplete="new-password"
          autoFocus
          hint={`Must be at least ${PASSWORD_RULES.resetMin} characters.`}
          error={errors.password?.message}
          {...register("password")}
        />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register("confirmPassword")}
        />
        <SubmitButton
          busy={submitting}
          label="Reset Password"
          busyLabel="Resetting..."
          className="w-full"
        />
      </form>
    </Shell>
  );
}
