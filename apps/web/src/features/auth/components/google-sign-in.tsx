import { GoogleLogin, GoogleOAuthProvider } from "@react-oauth/google";
import { useEffect, useState } from "react";
import { errorMessage } from "@/lib/api-client";
import { useAuth } from "@/lib/auth/auth-provider";
import { useTheme } from "@/lib/theme";
import { googleLogin, useGoogleClientId } from "../api/auth-api";
import { AUTH_TEXT, type AuthMode, GOOGLE_SCRIPT_TIMEOUT_MS } from "../messages";

interface GoogleSignInProps {
  mode: AuthMode;
  /** Sign-up only: the form's date of birth, for an account new here (decision 0054). */
  dateOfBirth?: (() => string | undefined) | undefined;
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
  const [script, setScript] = useState<"loading" | "loaded" | "failed">("loading");
  // A script that hangs (a firewall that drops instead of refusing) fails after a while too.
  useEffect(() => {
    if (!clientId || script !== "loading") return;
    const timer = setTimeout(() => setScript("failed"), GOOGLE_SCRIPT_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [clientId, script]);
  if (!clientId) return null;
  if (script === "failed") {
    // Google unreachable (a blocker, a firewall): say so where the button would be, not a gap.
    return (
      <div data-testid="google-sign-in" className="space-y-4">
        <Divider />
        <p role="alert" className="text-center text-sm text-red-700 dark:text-red-300">
          {props.mode === "signup"
            ? AUTH_TEXT.googleWidgetFailedSignup
            : AUTH_TEXT.googleWidgetFailedLogin}
        </p>
      </div>
    );
  }
  return (
    <GoogleOAuthProvider
      clientId={clientId}
      onScriptLoadSuccess={() => setScript("loaded")}
      onScriptLoadError={() => setScript("failed")}
    >
      <GoogleButton {...props} />
    </GoogleOAuthProvider>
  );
}

function Divider() {
  return (
    <div className="flex items-center gap-3 text-xs font-medium text-stone-500 uppercase dark:text-stone-400">
      <span className="h-px flex-1 bg-stone-200 dark:bg-white/10" />
      or
      <span className="h-px flex-1 bg-stone-200 dark:bg-white/10" />
    </div>
  );
}

function GoogleButton({ mode, dateOfBirth, onSignedIn, onError }: GoogleSignInProps) {
  const { signIn } = useAuth();
  const { resolvedTheme } = useTheme();
  const [busy, setBusy] = useState(false);
  const widgetError =
    mode === "signup" ? AUTH_TEXT.googleWidgetFailedSignup : AUTH_TEXT.googleWidgetFailedLogin;

  return (
    <div data-testid="google-sign-in" aria-busy={busy} className="space-y-4">
      <Divider />
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
              signIn(await googleLogin(credential, dateOfBirth?.()));
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
