import { type ReactNode, useEffect } from "react";
import { useSearchParams } from "react-router";
import { buttonClasses } from "@/components/ui/button";
import { PageSpinner } from "@/components/ui/spinner";
import { UserAvatar } from "@/components/ui/user-avatar";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useAuth } from "@/lib/auth/auth-provider";
import { useSettings } from "@/lib/settings";
import { useTheme } from "@/lib/theme";
import { openSignInPopup } from "../lib/session-handoff";

export const EMBED_TEXT = {
  title: (name: string) => `Chat with ${name}`,
  invitation: (name: string) => `Sign up to start talking with ${name}.`,
  signUp: "Sign Up",
  logIn: "Log In",
  popupBlocked:
    "Your browser blocked the sign-in window. Allow pop-ups for this site and try again.",
} as const;

export interface EmbedFrameProps {
  /** What a signed-in fan sees: the chat (the route passes the chat feature's screen). */
  chat: ReactNode;
  /**
   * What a visitor without a session sees above the sign-up call, e.g. the anonymous trial chat
   * (issue 27 item 1) once it exists; its "allowance used" hook should call `openSignIn("signup")`.
   */
  visitor?: (openSignIn: (tab: "signup" | "login") => void) => ReactNode;
}

/**
 * `/embed`: the twin's chat in the creator's site's frame (issue 27 item 5; decision 0085). The
 * host page's theme comes as ?theme=light|dark. A fan signed in (in this frame, or through the
 * popup) sees `chat`; a visitor sees the call to sign up or log in, which opens the popup.
 */
export function EmbedFrame({ chat, visitor }: EmbedFrameProps) {
  const [params] = useSearchParams();
  const { setTheme } = useTheme();
  const { status, signIn } = useAuth();
  const { settings } = useSettings();
  const name = settings.aiProfile.name;
  const asked = params.get("theme");
  useDocumentTitle(`${EMBED_TEXT.title(name)} · Twinline`);

  useEffect(() => {
    if (asked === "light" || asked === "dark") setTheme(asked);
  }, [asked, setTheme]);

  const openSignIn = (tab: "signup" | "login") => {
    if (!openSignInPopup(tab, signIn)) window.alert(EMBED_TEXT.popupBlocked);
  };

  return (
    <main
      id="main"
      data-testid="embed-page"
      className="flex h-dvh flex-col bg-white p-1.5 dark:bg-stone-950 [&>div]:h-full! [&>div]:min-h-0!"
    >
      {status === "loading" ? (
        <PageSpinner />
      ) : status === "authenticated" ? (
        chat
      ) : (
        <div className="flex flex-col gap-4 overflow-y-auto rounded-3xl border border-stone-200 bg-stone-50 p-5 dark:border-white/10 dark:bg-stone-900/60">
          <div className="flex items-center gap-3">
            <UserAvatar name={name} image={settings.aiProfile.aiProfileImage} />
            <h1 className="font-display text-lg font-bold text-stone-900 dark:text-white">
              {EMBED_TEXT.title(name)}
            </h1>
          </div>
          {visitor?.(openSignIn)}
          <p className="text-sm text-stone-700 dark:text-stone-300">
            {EMBED_TEXT.invitation(name)}
          </p>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={buttonClasses("primary", "md")}
              onClick={() => openSignIn("signup")}
            >
              {EMBED_TEXT.signUp}
            </button>
            <button
              type="button"
              className={buttonClasses("secondary", "md")}
              onClick={() => openSignIn("login")}
            >
              {EMBED_TEXT.logIn}
            </button>
          </div>
        </div>
      )}
    </main>
  );
}
