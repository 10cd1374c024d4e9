import type { ComponentProps } from "react";
import { TextField } from "@/components/ui/field";

/** The e-mail field of the login, sign-up and forgot-password forms. */
export function EmailField(
  input: Omit<ComponentProps<typeof TextField>, "label" | "type" | "autoComplete" | "inputMode">,
) {
  return (
    <TextField
      label="Email"
      type="email"
      autoComplete="email"
      inputMode="email"
      placeholder="you@example.com"
      {...input}
    />
  );
}
