import { RefreshCw, ShieldAlert } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { StatusLayout } from "./status-layout";

/** Shown when authentication cannot be initialised. */
export function AuthErrorScreen() {
  return (
    <StatusLayout testId="auth-error">
      <div className="mx-auto flex size-16 items-center justify-center rounded-2xl bg-brand-100 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
        <ShieldAlert aria-hidden="true" className="size-8" />
      </div>
      <h1 className="mt-6 font-display text-2xl font-bold text-stone-900 sm:text-3xl dark:text-white">
        Authentication Error
      </h1>
      <p className="mt-3 text-stone-600 dark:text-stone-300">Please refresh the page.</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className={buttonClasses("primary", "md", "mt-8")}
      >
        <RefreshCw aria-hidden="true" className="size-4" />
        Refresh
      </button>
    </StatusLayout>
  );
}
