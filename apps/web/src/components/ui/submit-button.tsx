import type { ReactNode } from "react";
import { buttonClasses } from "./button";

/** A form's primary submit button: disabled, and saying `busyLabel`, while the form is sent. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  icon,
  disabled = false,
  className,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  /** Stays beside the label while busy too. */
  icon?: ReactNode;
  /** The form cannot be sent yet. */
  disabled?: boolean;
  className?: string;
}) {
  return (
    <button
      type="submit"
      disabled={disabled || busy}
      className={buttonClasses("primary", "md", className)}
    >
      {icon}
      {busy ? busyLabel : label}
    </button>
  );
}
