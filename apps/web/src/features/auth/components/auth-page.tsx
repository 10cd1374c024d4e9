import * as Tabs from "@radix-ui/react-tabs";
import { useEffect, useState } from "react";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { PageSpinner } from "@/components/ui/spinner";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useAuth } from "@/lib/auth/auth-provider";
import { useSettings } from "@/lib/settings";
import type { AuthMode } from "../messages";
import { LoginForm, SignupForm } from "./auth-forms";
import { AuthShell } from "./auth-shell";
import { ForgotPasswordForm } from "./forgot-password-form";

const tabClasses =
  "flex-1 rounded-full px-4 py-2 text-sm font-semibold text-stone-600 transition hover:text-stone-900 data-[state=active]:bg-white data-[state=active]:text-stone-900 data-[state=active]:shadow-sm dark:text-stone-300 dark:hover:text-white dark:data-[state=active]:bg-stone-700 dark:data-[state=active]:text-white";

/**
 * `/auth`: Login and Sign Up tabs, the forgot-password step ("Check your email"), theme toggle,
 * logo link home. Signed-in visitors go straight to /dashboard. `?tab=signup` opens Sign Up.
 * `onSignedIn` replaces the way to /dashboard (the embed's sign-in popup hands the session back to
 * its frame instead: decision 0085), for a sign-in here and for a visitor already signed in.
 */
export function AuthPage({ onSignedIn }: { onSignedIn?: () => void } = {}) {
  const { status } = useAuth();
  const { settings } = useSettings();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [tab, setTab] = useState<AuthMode>(params.get("tab") === "signup" ? "signup" : "login");
  const [forgot, setForgot] = useState(false);
  // With onSignedIn, the effect below calls it once the session is there.
  const goToDashboard = () => {
    if (!onSignedIn) navigate("/dashboard", { replace: true });
  };
  const signedIn = status === "authenticated";
  useEffect(() => {
    if (signedIn) onSignedIn?.();
  }, [signedIn, onSignedIn]);

  useDocumentTitle(`${tab === "signup" ? "Sign Up" : "Login"} · Twinline`);

  if (signedIn) return onSignedIn ? <PageSpinner /> : <Navigate to="/dashboard" replace />;
  if (status === "loading") return <PageSpinner />;

  return (
    <AuthShell testId="auth-page">
      {forgot ? (
        <>
          <h1 className="font-display text-2xl font-bold text-stone-900 dark:text-white">
            Forgot Password
          </h1>
          <div className="mt-5">
            <ForgotPasswordForm
              variant="page"
              autoFocus
              onBack={() => {
                setForgot(false);
                setTab("login");
              }}
            />
          </div>
        </>
      ) : (
        <>
          <h1 className="font-display text-2xl font-bold text-stone-900 dark:text-white">
            {tab === "login" ? "Welcome back" : "Create your account"}
          </h1>
          <p className="mt-1.5 text-sm text-stone-600 dark:text-stone-400">
            {tab === "login"
              ? `Log in to chat and call ${settings.aiProfile.name}.`
              : `Sign up to start talking with ${settings.aiProfile.name}.`}
          </p>
          <Tabs.Root
            value={tab}
            onValueChange={(value) => setTab(value === "signup" ? "signup" : "login")}
            className="mt-6"
          >
            <Tabs.List
              aria-label="Login or sign up"
              className="flex gap-1 rounded-full bg-stone-100 p-1 dark:bg-white/5"
            >
              <Tabs.Trigger value="login" className={tabClasses}>
                Login
              </Tabs.Trigger>
              <Tabs.Trigger value="signup" className={tabClasses}>
                Sign Up
              </Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="login" className="mt-6 focus:outline-none">
              <LoginForm onSuccess={goToDashboard} onForgotPassword={() => setForgot(true)} />
            </Tabs.Content>
            <Tabs.Content value="signup" className="mt-6 focus:outline-none">
              <SignupForm onSuccess={goToDashboard} />
            </Tabs.Content>
          </Tabs.Root>
        </>
      )}
    </AuthShell>
  );
}
