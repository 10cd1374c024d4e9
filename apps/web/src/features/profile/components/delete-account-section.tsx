import { GoogleLogin, GoogleOAuthProvider } from "@react-oauth/google";
import { useQuery } from "@tanstack/react-query";
import { DELETE_CONFIRMATION_WORD } from "@twinline/contracts";
import { Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { buttonClasses, destructiveButtonClasses } from "@/components/ui/button";
import { FormMessage, PasswordField, TextField } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
import { errorMessage } from "@/lib/api-client";
import { useAuth, useCurrentUser } from "@/lib/auth/auth-provider";
import { useTheme } from "@/lib/theme";
import { deleteAccount, googleClientIdQuery } from "../api/privacy-api";
import { PRIVACY_TEXT } from "../messages";
import { ProfileCard } from "./profile-card";

/** "Delete account": a dialog asking the password (or a fresh Google sign-in) and the word DELETE. */
export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  return (
    <ProfileCard
      icon={<Trash2 aria-hidden="true" className="size-5" />}
      title={PRIVACY_TEXT.deleteTitle}
      description={PRIVACY_TEXT.deleteDescription}
    >
      <button
        type="button"
        className={buttonClasses("primary", "md", destructiveButtonClasses)}
        onClick={() => setOpen(true)}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        {PRIVACY_TEXT.deleteButton}
      </button>
      {open ? <DeleteAccountDialog onClose={() => setOpen(false)} /> : null}
    </ProfileCard>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const user = useCurrentUser();
  const { logout } = useAuth();
  const navigate = useNavigate();
  // An account with a password confirms with it; a Google-only one with Google.
  const googleOnly = user.googleId !== null && user.hasPassword === false;
  const [password, setPassword] = useState("");
  const [googleToken, setGoogleToken] = useState<string | null>(null);
  const [word, setWord] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirmed = googleOnly ? googleToken !== null : password.length > 0;
  const ready = confirmed && word === DELETE_CONFIRMATION_WORD;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready) return;
    setPending(true);
    setError(null);
    try {
      const answer = await deleteAccount({
        confirmation: DELETE_CONFIRMATION_WORD,
        ...(googleOnly && googleToken ? { googleToken } : { password }),
      });
      toast.success(answer.message);
      logout();
      navigate("/", { replace: true });
    } catch (failure) {
      setError(errorMessage(failure, PRIVACY_TEXT.deleteFailed));
      setPending(false);
    }
  };

  return (
    <FormDialog
      open
      title={PRIVACY_TEXT.deleteDialogTitle}
      description={PRIVACY_TEXT.deleteDialogDescription}
      pending={pending}
      submitLabel={PRIVACY_TEXT.deleteSubmit}
      submitDisabled={!ready}
      destructive
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
      testId="delete-account-dialog"
    >
      {googleOnly ? (
        <GoogleConfirmation onToken={setGoogleToken} confirmed={googleToken !== null} />
      ) : (
        <PasswordField
          label={PRIVACY_TEXT.deletePasswordLabel}
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      )}
      <TextField
        label={PRIVACY_TEXT.deleteWordLabel}
        autoComplete="off"
        spellCheck={false}
        value={word}
        onChange={(event) => setWord(event.target.value)}
      />
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
    </FormDialog>
  );
}

function GoogleConfirmation({
  onToken,
  confirmed,
}: {
  onToken: (token: string) => void;
  confirmed: boolean;
}) {
  const clientId = useQuery(googleClientIdQuery).data ?? null;
  const { resolvedTheme } = useTheme();
  const [failed, setFailed] = useState(false);
  if (!clientId || failed) {
    return <FormMessage tone="error">{PRIVACY_TEXT.deleteGoogleUnavailable}</FormMessage>;
  }
  return (
    <div className="space-y-2">
      <p className="text-sm text-stone-700 dark:text-stone-300">
        {confirmed ? PRIVACY_TEXT.deleteGoogleConfirmed : PRIVACY_TEXT.deleteGoogleHint}
      </p>
      <GoogleOAuthProvider clientId={clientId} onScriptLoadError={() => setFailed(true)}>
        <GoogleLogin
          context="use"
          shape="pill"
          theme={resolvedTheme === "dark" ? "filled_black" : "outline"}
          onSuccess={({ credential }) => {
            if (credential) onToken(credential);
          }}
          onError={() => setFailed(true)}
        />
      </GoogleOAuthProvider>
    </div>
  );
}
