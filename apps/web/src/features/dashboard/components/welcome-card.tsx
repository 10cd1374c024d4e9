import { Coins, UserRound } from "lucide-react";
import { useEffect } from "react";
import { Link } from "react-router";
import { buttonClasses } from "@/components/ui/button";
import { useAuth, useCurrentUser } from "@/lib/auth/auth-provider";
import { useSettings } from "@/lib/settings";

/** /dashboard until the overview of the dashboard issue: a greeting and the credit balance. */
export function WelcomeCard() {
  const user = useCurrentUser();
  const { refreshUser } = useAuth();
  const { settings } = useSettings();
  const firstName = user.name.trim().split(/\s+/)[0] || "there";

  // The balance may have changed elsewhere; the session's throttles keep this cheap.
  useEffect(() => {
    refreshUser().catch(() => {});
  }, [refreshUser]);

  return (
    <div className="space-y-6">
      <section
        aria-labelledby="welcome-title"
        className="overflow-hidden rounded-3xl bg-gradient-to-br from-brand-600 via-rose-600 to-orange-500 p-6 text-white shadow-xl shadow-brand-900/15 sm:p-8"
      >
        <h1 id="welcome-title" className="font-display text-2xl font-bold sm:text-3xl">
          Welcome back, {firstName}!
        </h1>
        <p className="mt-2 max-w-xl text-white/90">
          {settings.aiProfile.promotionalMessage.trim() ||
            `${settings.aiProfile.name} is ready when you are.`}
        </p>
      </section>

      <div className="grid gap-4 sm:grid-cols-2">
        <section
          aria-labelledby="credits-title"
          className="rounded-3xl border border-stone-200 bg-white p-5 dark:border-white/10 dark:bg-stone-900"
        >
          <div className="flex items-center gap-3">
            <span className="flex size-10 items-center justify-center rounded-2xl bg-amber-100 text-amber-700 dark:bg-amber-500/15 dark:text-amber-300">
              <Coins aria-hidden="true" className="size-5" />
            </span>
            <h2
              id="credits-title"
              className="text-sm font-medium text-stone-600 dark:text-stone-400"
            >
              Credit balance
            </h2>
          </div>
          <p
            data-testid="credit-balance"
            className="mt-4 font-display text-4xl font-bold text-stone-900 dark:text-white"
          >
            {user.credits.toLocaleString()}
          </p>
          <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">
            {settings.creditsPerMinute} credits per minute of voice call
          </p>
        </section>

        <section
          aria-labelledby="account-title"
          className="rounded-3xl border border-stone-200 bg-white p-5 dark:border-white/10 dark:bg-stone-900"
        >
          <div className="flex items-center gap-3">
            <span className="flex size-10 items-center justify-center rounded-2xl bg-brand-100 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
              <UserRound aria-hidden="true" className="size-5" />
            </span>
            <h2
              id="account-title"
              className="text-sm font-medium text-stone-600 dark:text-stone-400"
            >
              Your account
            </h2>
          </div>
          <p className="mt-4 truncate font-semibold text-stone-900 dark:text-white">{user.name}</p>
          <p className="truncate text-sm text-stone-500 dark:text-stone-400">{user.email}</p>
          <Link to="/dashboard/profile" className={buttonClasses("secondary", "sm", "mt-4")}>
            Edit profile
          </Link>
        </section>
      </div>
    </div>
  );
}
