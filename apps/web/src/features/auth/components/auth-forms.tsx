import { zodResolver } from "@hookform/resolvers/zod";
import {
  AGE_RULES,
  type AuthResponse,
  dateOfBirthSchema,
  loginRequestSchema,
  MINORS_NOTICE,
  signupRequestSchema,
  utcToday,
} from "@twinline/contracts";
import { LogIn, UserPlus } from "lucide-react";
import { type FormEventHandler, type ReactNode, useState } from "react";
import { useForm } from "react-hook-form";
import { FormMessage, PasswordField, TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { errorMessage } from "@/lib/api-client";
import { useAuth } from "@/lib/auth/auth-provider";
import { useSettings } from "@/lib/settings";
import { login, signup } from "../api/auth-api";
import { AUTH_TEXT, type AuthMode } from "../messages";
import { EmailField } from "./email-field";
import { GoogleSignIn } from "./google-sign-in";

/**
 * Sends the form's values, signs in with the answer and calls `onSuccess`; a failure shows as
 * the form's message (the server's, else `fallback`), and so does a Google sign-in failure.
 */
function useAuthSubmit<T>(
  request: (values: T) => Promise<AuthResponse>,
  fallback: string,
  onSuccess: () => void,
) {
  const { signIn } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const send = async (values: T) => {
    setError(null);
    try {
      signIn(await request(values));
      onSuccess();
    } catch (err) {
      setError(errorMessage(err, fallback));
    }
  };
  return { error, setError, send };
}

/** The form with its message and submit button, then Google sign-in. */
function AuthFormFrame({
  testId,
  onSubmit,
  error,
  submitting,
  icon,
  label,
  busyLabel,
  google,
  googleDateOfBirth,
  onSuccess,
  onError,
  children,
}: {
  testId: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  error: string | null;
  submitting: boolean;
  icon: ReactNode;
  label: string;
  busyLabel: string;
  google: AuthMode;
  /** Sign-up: the form's date of birth, sent with the Google credential for a new account. */
  googleDateOfBirth?: () => string | undefined;
  onSuccess: () => void;
  onError: (message: string | null) => void;
  children: ReactNode;
}) {
  return (
    <div className="space-y-5">
      {/* A change to any field clears the last failure: it was about the values before. */}
      <form
        onSubmit={onSubmit}
        onChange={() => {
          if (error) onError(null);
        }}
        noValidate
        className="space-y-4"
        data-testid={testId}
      >
        {error ? <FormMessage>{error}</FormMessage> : null}
        {children}
        <SubmitButton
          busy={submitting}
          icon={icon}
          label={label}
          busyLabel={busyLabel}
          className="w-full"
        />
      </form>
      <GoogleSignIn
        mode={google}
        dateOfBirth={googleDateOfBirth}
        onSignedIn={onSuccess}
        onError={onError}
      />
    </div>
  );
}

interface LoginFormProps {
  onSuccess: () => void;
  onForgotPassword: () => void;
  /** Puts the cursor in the e-mail field on mount. */
  autoFocus?: boolean;
}

/** E-mail and password, Forgot password link, Google sign-in. */
export function LoginForm({ onSuccess, onForgotPassword, autoFocus }: LoginFormProps) {
  const { error, setError, send } = useAuthSubmit(login, AUTH_TEXT.loginFailed, onSuccess);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { email: "", password: "" },
  });

  return (
    <AuthFormFrame
      testId="login-form"
      onSubmit={handleSubmit(send)}
      error={error}
      submitting={isSubmitting}
      icon={<LogIn aria-hidden="true" className="size-4" />}
      label="Login"
      busyLabel="Logging in..."
      google="login"
      onSuccess={onSuccess}
      onError={setError}
    >
      <EmailField autoFocus={autoFocus} error={errors.email?.message} {...register("email")} />
      <PasswordField
        label="Password"
        autoComplete="current-password"
        error={errors.password?.message}
        labelAside={
          <button
            type="button"
            onClick={onForgotPassword}
            className="rounded text-sm font-medium text-brand-600 hover:text-brand-700 hover:underline dark:text-brand-300 dark:hover:text-brand-200"
          >
            Forgot password?
          </button>
        }
        {...register("password")}
      />
    </AuthFormFrame>
  );
}

/**
 * Name, e-mail, password and date of birth (the server refuses anyone under the operator's
 * minimum age: decision 0054), the minors notice, Google sign-in.
 */
export function SignupForm({ onSuccess, autoFocus }: Omit<LoginFormProps, "onForgotPassword">) {
  const { error, setError, send } = useAuthSubmit(signup, AUTH_TEXT.signupFailed, onSuccess);
  const { settings } = useSettings();
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(signupRequestSchema),
    defaultValues: { name: "", email: "", password: "", dateOfBirth: "" },
  });
  // Only a well-formed date goes with Google: an existing Google account needs none at all.
  const googleDateOfBirth = () => {
    const parsed = dateOfBirthSchema.safeParse(getValues("dateOfBirth"));
    return parsed.success ? parsed.data : undefined;
  };

  return (
    <AuthFormFrame
      testId="signup-form"
      onSubmit={handleSubmit(send)}
      error={error}
      submitting={isSubmitting}
      icon={<UserPlus aria-hidden="true" className="size-4" />}
      label="Create Account"
      busyLabel="Creating account..."
      google="signup"
      googleDateOfBirth={googleDateOfBirth}
      onSuccess={onSuccess}
      onError={setError}
    >
      <TextField
        label="Name"
        autoComplete="name"
        autoFocus={autoFocus}
        placeholder="Your name"
        error={errors.name?.message}
        {...register("name")}
      />
      <EmailField error={errors.email?.message} {...register("email")} />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        hint="At least 8 characters."
        error={errors.password?.message}
        {...register("password")}
      />
      <TextField
        label="Date of birth"
        type="date"
        autoComplete="bday"
        min={`${AGE_RULES.earliestYear}-01-01`}
        max={utcToday()}
        hint={`You must be at least ${settings.minimumAge} years old. Also needed to sign up with Google.`}
        error={errors.dateOfBirth?.message}
        {...register("dateOfBirth")}
      />
      <p data-testid="minors-notice" className="text-xs text-stone-600 dark:text-stone-400">
        {MINORS_NOTICE}.
      </p>
      <p className="text-xs text-stone-600 dark:text-stone-400">
        {/* A new tab: the form keeps what was typed. */}
        <a
          href="/safety"
          target="_blank"
          rel="noopener"
          data-testid="signup-safety-link"
          className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-300"
        >
          Safety
        </a>
        : what happens if a message suggests you may be in crisis.
      </p>
    </AuthFormFrame>
  );
}
