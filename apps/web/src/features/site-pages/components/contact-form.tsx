import { useMutation } from "@tanstack/react-query";
import {
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  type ContactRequest,
  contactRequestSchema,
} from "@twinline/contracts";
import { Mail, Send } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { FormMessage, inputClasses, TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { ApiError } from "@/lib/api-client";
import { sendContactMessage } from "../api/contact";

type Field = "name" | "email" | "message";
type Values = Record<Field, string>;
const EMPTY: Values = { name: "", email: "", message: "" };

/** The contract's rules, as one message per field. */
function validate(values: Values & { website: string }) {
  const parsed = contactRequestSchema.safeParse(values);
  const errors: Partial<Record<Field, string>> = {};
  if (parsed.success) return { request: parsed.data, errors };
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return { request: null, errors };
}

/**
 * The contact page's form (issue 26 item 6): name, e-mail and message, mailed to the operator's
 * contact address. Checked here for speed and again by the server; a hidden field catches bots.
 */
export function ContactForm({ contactEmail }: { contactEmail: string }) {
  const [values, setValues] = useState<Values>(EMPTY);
  const [website, setWebsite] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const messageId = useId();
  const send = useMutation({
    mutationFn: (request: ContactRequest) => sendContactMessage(request),
    onSuccess: () => setValues(EMPTY),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const { request, errors: found } = validate({ ...values, website });
    setErrors(found);
    if (request) send.mutate(request);
  };
  const bind = (field: Field) => ({
    value: values[field],
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [field]: event.target.value })),
  });
  const failure =
    send.error instanceof ApiError && send.error.status < 500
      ? send.error.message
      : send.error
        ? CONTACT_MESSAGES.failed
        : null;

  return (
    <section
      aria-labelledby="contact-form-title"
      className="mt-10 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6 dark:border-white/10 dark:bg-stone-900"
    >
      <h2
        id="contact-form-title"
        className="font-display text-xl font-semibold text-stone-900 dark:text-white"
      >
        Write to us
      </h2>
      <p className="mt-1 flex flex-wrap items-center gap-1.5 text-sm text-stone-600 dark:text-stone-300">
        <Mail aria-hidden="true" className="size-4" />
        Or e-mail us at{" "}
        <a
          href={`mailto:${contactEmail}`}
          data-testid="contact-email"
          className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
        >
          {contactEmail}
        </a>
      </p>
      {send.isSuccess ? (
        <FormMessage tone="info" className="mt-4">
          {send.data.message}
        </FormMessage>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="mt-5 space-y-4" aria-label="Contact form">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Your name"
            autoComplete="name"
            maxLength={CONTACT_LIMITS.nameMax}
            error={errors.name}
            {...bind("name")}
          />
          <TextField
            label="Your e-mail"
            type="email"
            autoComplete="email"
            maxLength={254}
            error={errors.email}
            {...bind("email")}
          />
        </div>
        <div>
          <label
            htmlFor={messageId}
            className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
          >
            Message
          </label>
          <textarea
            id={messageId}
            rows={6}
            maxLength={CONTACT_LIMITS.messageMax}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={errors.message ? `${messageId}-error` : undefined}
            className={`${inputClasses} h-auto py-2.5`}
            {...bind("message")}
          />
          {errors.message ? (
            <p id={`${messageId}-error`} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
              {errors.message}
            </p>
          ) : null}
        </div>
        {/* Hidden from people (and from screen readers); a bot that fills it is ignored. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label>
            Website
            <input
              tabIndex={-1}
              autoComplete="off"
              name="website"
              value={website}
              onChange={(event) => setWebsite(event.target.value)}
            />
          </label>
        </div>
        {failure ? <FormMessage>{failure}</FormMessage> : null}
        <SubmitButton
          busy={send.isPending}
          label="Send message"
          busyLabel="Sending…"
          icon={<Send aria-hidden="true" className="size-4" />}
        />
      </form>
    </section>
  );
}
