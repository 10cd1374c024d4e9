import { GoogleLogin, GoogleOAuthProvider } from "@react-oauth/google";
import { useState } from "react";
import { errorMessage } from "@/lib/api-client";
import { useAuth } from "@/lib/auth/auth-provider";
import { useTheme } from "@/lib/theme";
import { googleLogin, useGoogleClientId } from "../api/auth-api";
import { AUTH_TEXT, type AuthMode } from "../messages";

interface GoogleSignInProps {
  mode: AuthMode;
  onSignedIn: () => void;
  /** A failure message for the form's error slot; null clears it. */
  onError: (message: string | null) => void;
}

/**
 * "Sign in with Google" with one-tap, when the server has a Google client id; nothing otherwise.
 * The ID token goes to POST /api/auth/google.
 */
export function GoogleSignIn(props: GoogleSignInProps) {
  const clientId = useGoogleClientId();
  if (!clientId) return null;
  return (
    <GoogleOAuthProvider clientId={clientId}>
      <GoogleButton {...props} />
    </GoogleOAuthProvider>
  );
}

function GoogleButton({ mode, onSignedIn, onError }: GoogleSignInProps) {
  const { signIn } = useAuth();
  const { resolvedTheme } = useTheme();
  const [busy, setBusy] = useState(false);
  const widgetError =
    mode === "signup" ? AUTH_TEXT.googleWidgetFailedSignup : AUTH_TEXT.googleWidgetFailedLogin;

  return (
    <div data-testid="google-sign-in" aria-busy={busy} className="space-y-4">
      <div className="flex items-center gap-3 text-xs font-medium text-stone-500 uppercase dark:text-stone-400">
        <span className="h-px flex-1 bg-stone-200 dark:bg-white/10" />
        or
        <span className="h-px flex-1 bg-stone-200 dark:bg-white/10" />
      </div>
      <div className="flex min-h-11 justify-center">
        <GoogleLogin
          useOneTap
          context={mode === "signup" ? "signup" : "signin"}
          text={mode === "signup" ? "signup_with" : "signin_with"}
          shape="pill"
          width="320"
          theme={resolvedTheme === "dark" ? "filled_black" : "outline"}
          onSuccess={async ({ credential }) => {
            if (!credential) {
              onError(AUTH_TEXT.googleFailed);
              return;
            }
            onError(null);
            setBusy(true);
            try {
              signIn(await googleLogin(credential));
              onSignedIn();
            } catch (error) {
              onError(errorMessage(error, AUTH_TEXT.googleFailed));
            } finally {
              setBusy(false);
            }
          }}
          onError={() => onError(widgetError)}
        />
      </div>
    </div>
  );
}
