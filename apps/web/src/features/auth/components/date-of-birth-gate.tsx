import {
  AGE_MESSAGES,
  AGE_RULES,
  dateOfBirthRequestSchema,
  MINORS_NOTICE,
  routes,
  utcToday,
} from "@twinline/contracts";
import { type ReactNode, useState } from "react";
import { FormMessage, TextField } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
import { callRoute, errorMessage } from "@/lib/api-client";
import { useAuth } from "@/lib/auth/auth-provider";
import { useAppNavigate } from "@/lib/navigation";

export const DATE_OF_BIRTH_GATE_TEXT = {
  title: "Your date of birth",
  description: `${AGE_MESSAGES.askedBeforeUse} It cannot be changed afterwards.`,
  failed: "Failed to save your date of birth. Please try again.",
} as const;

/** PUT /api/users/date-of-birth: only while none is stored (decision 0054). */
function giveDateOfBirth(dateOfBirth: string) {
  return callRoute(routes.account.dateOfBirth, { body: { dateOfBirth } });
}

/**
 * Chat and calls of an account made before sign-up asked for the date of birth: a dialog asks
 * for it first (the server refuses both until it is given). Closing it goes back to the
 * dashboard; an answer under the minimum age shows the server's reason.
 */
export function DateOfBirthGate({ children }: { children: ReactNode }) {
  const { user, setUser } = useAuth();
  const navigate = useAppNavigate();
  const [value, setValue] = useState("");
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!user || user.dateOfBirth !== null) return <>{children}</>;

  const parsed = dateOfBirthRequestSchema.shape.dateOfBirth.safeParse(value);
  const fieldError = touched && !parsed.success ? parsed.error.issues[0]?.message : undefined;

  return (
    <FormDialog
      open
      testId="date-of-birth-gate"
      title={DATE_OF_BIRTH_GATE_TEXT.title}
      description={DATE_OF_BIRTH_GATE_TEXT.description}
      pending={pending}
      submitLabel="Continue"
      onClose={() => navigate("/dashboard")}
      onSubmit={async (event) => {
        event.preventDefault();
        setTouched(true);
        if (!parsed.success || pending) return;
        setPending(true);
        setFailure(null);
        try {
          setUser((await giveDateOfBirth(parsed.data)).user);
        } catch (error) {
          setFailure(errorMessage(error, DATE_OF_BIRTH_GATE_TEXT.failed));
        } finally {
          setPending(false);
        }
      }}
    >
      <TextField
        label="Date of birth"
        type="date"
        autoComplete="bday"
        min={`${AGE_RULES.earliestYear}-01-01`}
        max={utcToday()}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={fieldError}
        hint={`${MINORS_NOTICE}.`}
      />
      {failure ? <FormMessage>{failure}</FormMessage> : null}
    </FormDialog>
  );
}
