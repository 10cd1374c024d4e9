import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { useAppNavigate } from "@/lib/navigation";
import type { AuthMode } from "../messages";
import { LoginForm, SignupForm } from "./auth-forms";
import { ForgotPasswordForm } from "./forgot-password-form";

type View = AuthMode | "forgot";

interface AuthModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The view shown on opening: Login or Create Account. */
  initialMode: AuthMode;
}

const TITLES: Record<View, { title: string; description: string }> = {
  login: { title: "Login", description: "Welcome back! Log in to continue your conversations." },
  signup: { title: "Create Account", description: "Sign up to start chatting and calling." },
  forgot: { title: "Forgot Password", description: "We will e-mail you a link to reset it." },
};

/**
 * The landing page's login / sign-up dialog, with the forgot-password step inside it.
 * Switching between Login and Create Account clears any error; success closes the dialog and
 * goes to /dashboard. Mount it with a new `key` on every opening to start from `initialMode`.
 */
export function AuthModal({ open, onOpenChange, initialMode }: AuthModalProps) {
  const [view, setView] = useState<View>(initialMode);
  // The landing page may show before the router is loaded: navigate through the app (lib/navigation).
  const navigate = useAppNavigate();
  const { title, description } = TITLES[view];

  const succeed = () => {
    onOpenChange(false);
    navigate("/dashboard");
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      testId="auth-modal"
    >
      {view === "login" ? (
        <LoginForm key="login" onSuccess={succeed} onForgotPassword={() => setView("forgot")} />
      ) : view === "signup" ? (
        <SignupForm key="signup" onSuccess={succeed} />
      ) : (
        <ForgotPasswordForm variant="modal" onBack={() => setView("login")} autoFocus />
      )}
      {view !== "forgot" ? (
        <p className="mt-6 text-center text-sm text-stone-600 dark:text-stone-400">
          {view === "login" ? "Don't have an account? " : "Already have an account? "}
          <button
            type="button"
            onClick={() => setView(view === "login" ? "signup" : "login")}
            className="rounded font-semibold text-brand-600 hover:text-brand-700 hover:underline dark:text-brand-300 dark:hover:text-brand-200"
          >
            {view === "login" ? "Sign Up" : "Login"}
          </button>
        </p>
      ) : null}
    </Dialog>
  );
}
