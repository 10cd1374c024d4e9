import { ArrowLeft, MailCheck, Send } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { buttonClasses } from "@/components/ui/button";
import { FormMessage, TextField } from "@/components/ui/field";
import { errorMessage } from "@/lib/api-client";
import { forgotPassword } from "../api/auth-api";
import { AUTH_TEXT } from "../messages";

interface ForgotPasswordFormProps {
  /** `modal`: the landing page's dialog ("Email Sent!"); `page`: /auth ("Check your email"). */
  variant: "modal" | "page";
  /** Back to the login form. */
  onBack: () => void;
  autoFocus?: boolean;
}

type RequestState = "idle" | "sending" | "sent";

/** Asks for an e-mail and sends the reset link (POST /api/auth/forgotpassword). */
export function ForgotPasswordForm({ variant, onBack, autoFocus }: ForgotPasswordFormProps) {
  const [email, setEmail] = useState("");
  const [state, setState] = useState<RequestState>("idle");
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const headingId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const value = email.trim();
    if (!value) {
      setFieldError(AUTH_TEXT.forgotEmpty);
      return;
    }
    setFieldError(undefined);
    setState("sending");
    try {
      await forgotPassword(value);
      setState("sent");
    } catch (err) {
      setState("idle");
      setError(
        errorMessage(
          err,
          variant === "modal" ? AUTH_TEXT.forgotFailedModal : AUTH_TEXT.forgotFailedPage,
        ),
      );
    }
  }

  if (state === "sent") {
    return (
      <section
        aria-labelledby={headingId}
        data-testid="forgot-password-sent"
        className="text-center"
      >
        <div className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
          <MailCheck aria-hidden="true" className="size-7" />
        </div>
        <h3
          id={headingId}
          className="mt-4 font-display text-xl font-bold text-stone-900 dark:text-white"
        >
          {variant === "modal" ? AUTH_TEXT.forgotSentModalTitle : AUTH_TEXT.forgotSentPageTitle}
        </h3>
        <p role="status" className="mt-2 text-sm text-stone-600 dark:text-stone-300">
          {AUTH_TEXT.forgotSentBody}
        </p>
        <button
          type="button"
          onClick={onBack}
          className={buttonClasses(
            variant === "page" ? "primary" : "secondary",
            "md",
            "mt-6 w-full",
          )}
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to Login
        </button>
      </section>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-testid="forgot-password-form">
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Enter the e-mail address of your account and we will send you a link to reset your password.
      </p>
      {error ? <FormMessage>{error}</FormMessage> : null}
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        autoFocus={autoFocus}
        placeholder="you@example.com"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={fieldError}
      />
      <button
        type="submit"
        disabled={state === "sending"}
        className={buttonClasses("primary", "md", "w-full")}
      >
        <Send aria-hidden="true" className="size-4" />
        {state === "sending" ? "Sending..." : "Send Reset Link"}
      </button>
      <button type="button" onClick={onBack} className={buttonClasses("ghost", "sm", "w-full")}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to Login
      </button>
    </form>
  );
}
