import { zodResolver } from "@hookform/resolvers/zod";
import { forgotPasswordRequestSchema } from "@twinline/contracts";
import { ArrowLeft, MailCheck, Send } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { buttonClasses } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { errorMessage } from "@/lib/api-client";
import { forgotPassword } from "../api/auth-api";
import { AUTH_TEXT } from "../messages";
import { EmailField } from "./email-field";
import { IconBadge } from "./icon-badge";

interface ForgotPasswordFormProps {
  /** `modal`: the landing page's dialog ("Email Sent!"); `page`: /auth ("Check your email"). */
  variant: "modal" | "page";
  /** Back to the login form. */
  onBack: () => void;
  autoFocus?: boolean;
}

/** The contract's e-mail, with the spec's own words for an empty field. */
const forgotFormSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, { error: AUTH_TEXT.forgotEmpty })
    .pipe(forgotPasswordRequestSchema.shape.email),
});

/** Asks for an e-mail and sends the reset link (POST /api/auth/forgotpassword). */
export function ForgotPasswordForm({ variant, onBack, autoFocus }: ForgotPasswordFormProps) {
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(forgotFormSchema), defaultValues: { email: "" } });

  const send = handleSubmit(async ({ email }) => {
    try {
      await forgotPassword(email);
      setSent(true);
    } catch (err) {
      setError(
        errorMessage(
          err,
          variant === "modal" ? AUTH_TEXT.forgotFailedModal : AUTH_TEXT.forgotFailedPage,
        ),
      );
    }
  });

  if (sent) {
    return (
      <section
        aria-labelledby={headingId}
        data-testid="forgot-password-sent"
        className="text-center"
      >
        <IconBadge tone="ok">
          <MailCheck aria-hidden="true" className="size-7" />
        </IconBadge>
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
    <form
      onSubmit={(event) => {
        setError(null);
        void send(event);
      }}
      noValidate
      className="space-y-4"
      data-testid="forgot-password-form"
    >
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Enter the e-mail address of your account and we will send you a link to reset your password.
      </p>
      {error ? <FormMessage>{error}</FormMessage> : null}
      <EmailField autoFocus={autoFocus} error={errors.email?.message} {...register("email")} />
      <SubmitButton
        busy={isSubmitting}
        icon={<Send aria-hidden="true" className="size-4" />}
        label="Send Reset Link"
        busyLabel="Sending..."
        className="w-full"
      />
      <button type="button" onClick={onBack} className={buttonClasses("ghost", "sm", "w-full")}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to Login
      </button>
    </form>
  );
}
