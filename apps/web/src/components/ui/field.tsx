import { clsx } from "clsx";
import { Eye, EyeOff } from "lucide-react";
import { type ComponentPropsWithRef, type ReactNode, useId, useState } from "react";

/** Input styles shared by every form. */
export const inputClasses =
  "block h-11 w-full rounded-xl border border-stone-300 bg-white px-3.5 text-base text-stone-900 shadow-sm transition placeholder:text-stone-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none aria-[invalid=true]:border-red-500 aria-[invalid=true]:focus:ring-red-500/30 read-only:bg-stone-100 read-only:text-stone-600 disabled:cursor-not-allowed disabled:opacity-60 sm:text-sm dark:border-white/15 dark:bg-stone-900 dark:text-white dark:placeholder:text-stone-500 dark:read-only:bg-white/5 dark:read-only:text-stone-400";

interface FieldProps extends Omit<ComponentPropsWithRef<"input">, "id"> {
  label: string;
  /** The validation message, shown under the input and announced. */
  error?: string;
  /** A hint under the input (also read by screen readers). */
  hint?: ReactNode;
  /** Content at the right end of the label row (e.g. a "Forgot password?" link). */
  labelAside?: ReactNode;
  id?: string;
}

/** What an input needs from its frame: its id and its accessible state. */
interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/** The input's own attributes: all but what the frame draws. */
type InputProps = Omit<FieldProps, "label" | "error" | "hint" | "labelAside" | "id" | "className">;

/** A labelled input with its hint and error, wired for screen readers. */
export function TextField(props: FieldProps) {
  return (
    <FieldFrame
      {...props}
      render={(control, input) => <input {...control} className={inputClasses} {...input} />}
    />
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField(props: Omit<FieldProps, "type">) {
  return (
    <FieldFrame
      {...props}
      render={(control, input) => (
        <PasswordControl control={control} label={props.label} input={input} />
      )}
    />
  );
}

/** The password input and its show/hide button. */
function PasswordControl({
  control,
  label,
  input,
}: {
  control: ControlProps;
  /** The field's label, which names the button ("Show password"). */
  label: string;
  input: InputProps;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <input
        {...control}
        type={visible ? "text" : "password"}
        className={clsx(inputClasses, "pr-12")}
        {...input}
      />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
        aria-pressed={visible}
        className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-xl text-stone-500 transition hover:text-stone-800 dark:text-stone-400 dark:hover:text-white"
      >
        {visible ? (
          <EyeOff aria-hidden="true" className="size-5" />
        ) : (
          <Eye aria-hidden="true" className="size-5" />
        )}
      </button>
    </div>
  );
}

/** The label, the hint and the error around an input, the input's ids and state wired to them. */
function FieldFrame({
  label,
  error,
  hint,
  labelAside,
  id,
  className,
  render,
  ...input
}: FieldProps & {
  render: (control: ControlProps, input: InputProps) => ReactNode;
}) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy =
    [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={clsx("relative", className)}>
      <div className={clsx("mb-1.5 flex min-h-6 items-center", labelAside ? "pr-36" : null)}>
        <label htmlFor={inputId} className="text-sm font-medium text-stone-800 dark:text-stone-200">
          {label}
        </label>
      </div>
      {render(
        {
          id: inputId,
          "aria-invalid": error ? true : undefined,
          "aria-describedby": describedBy,
        },
        input,
      )}
      {/* Shown beside the label but after the input in the DOM, so Tab reaches the input first
          (Email, then Password, then "Forgot password?"). */}
      {labelAside ? (
        <div className="absolute top-0 right-0 flex min-h-6 items-center">{labelAside}</div>
      ) : null}
      {hint ? (
        <p id={hintId} className="mt-1.5 text-xs text-stone-500 dark:text-stone-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A form-level message: an error (announced at once) or a notice. */
export function FormMessage({
  children,
  tone = "error",
  className,
}: {
  children: ReactNode;
  tone?: "error" | "info";
  className?: string;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={clsx(
        "rounded-xl border px-3.5 py-2.5 text-sm",
        tone === "error"
          ? "border-red-200 bg-red-50 text-red-700 dark:border-red-400/30 dark:bg-red-500/10 dark:text-red-300"
          : "border-sky-200 bg-sky-50 text-sky-800 dark:border-sky-400/30 dark:bg-sky-500/10 dark:text-sky-200",
        className,
      )}
    >
      {children}
    </div>
  );
}
