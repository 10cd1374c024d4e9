import { zodResolver } from "@hookform/resolvers/zod";
import { loginRequestSchema, signupRequestSchema } from "@twinline/contracts";
import { LogIn, UserPlus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { buttonClasses } from "@/components/ui/button";
import { FormMessage, PasswordField, TextField } from "@/components/ui/field";
import { errorMessage } from "@/lib/api-client";
import { useAuth } from "@/lib/auth/auth-provider";
import { login, signup } from "../api/auth-api";
import { AUTH_TEXT } from "../messages";
import { GoogleSignIn } from "./google-sign-in";

interface LoginFormProps {
  onSuccess: () => void;
  onForgotPassword: () => void;
  /** Puts the cursor in the e-mail field on mount. */
  autoFocus?: boolean;
}

/** E-mail and password, Forgot password link, Google sign-in. */
export function LoginForm({ onSuccess, onForgotPassword, autoFocus }: LoginFormProps) {
  const { signIn } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { email: "", password: "" },
  });

  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      signIn(await login(values));
      onSuccess();
    } catch (err) {
      setError(errorMessage(err, AUTH_TEXT.loginFailed));
    }
  });

  return (
    <div className="space-y-5">
      <form onSubmit={submit} noValidate className="space-y-4" data-testid="login-form">
        {error ? <FormMessage>{error}</FormMessage> : null}
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          autoFocus={autoFocus}
          placeholder="you@example.com"
          error={errors.email?.message}
          {...register("email")}
        />
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
        <button
          type="submit"
          disabled={isSubmitting}
          className={buttonClasses("primary", "md", "w-full")}
        >
          <LogIn aria-hidden="true" className="size-4" />
          {isSubmitting ? "Logging in..." : "Login"}
        </button>
      </form>
      <GoogleSignIn mode="login" onSignedIn={onSuccess} onError={setError} />
    </div>
  );
}

/** Name, e-mail and password, Google sign-in. */
export function SignupForm({ onSuccess, autoFocus }: Omit<LoginFormProps, "onForgotPassword">) {
  const { signIn } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(signupRequestSchema),
    defaultValues: { name: "", email: "", password: "" },
  });

  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      signIn(await signup(values));
      onSuccess();
    } catch (err) {
      setError(errorMessage(err, AUTH_TEXT.signupFailed));
    }
  });

  return (
    <div className="space-y-5">
      <form onSubmit={submit} noValidate className="space-y-4" data-testid="signup-form">
        {error ? <FormMessage>{error}</FormMessage> : null}
        <TextField
          label="Name"
          autoComplete="name"
          autoFocus={autoFocus}
          placeholder="Your name"
          error={errors.name?.message}
          {...register("name")}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          error={errors.email?.message}
          {...register("email")}
        />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          hint="At least 8 characters."
          error={errors.password?.message}
          {...register("password")}
        />
        <button
          type="submit"
          disabled={isSubmitting}
          className={buttonClasses("primary", "md", "w-full")}
        >
          <UserPlus aria-hidden="true" className="size-4" />
          {isSubmitting ? "Creating account..." : "Create Account"}
        </button>
      </form>
      <GoogleSignIn mode="signup" onSignedIn={onSuccess} onError={setError} />
    </div>
  );
}
