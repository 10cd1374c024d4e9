import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { adminLoginRequestSchema } from "@twinline/contracts";
import { ArrowLeft, LoaderCircle, ShieldCheck } from "lucide-react";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { buttonClasses } from "@/components/ui/button";
import { Logo } from "@/components/ui/logo";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { getAdminToken } from "@/lib/storage";
import { ADMIN_LOGIN_ERRORS, AdminLoginError, loginAdmin } from "../api/admin-auth";
import { returnPath } from "../api/origin";
import { storeAdminSession } from "../api/session";
import { inputClasses, PasswordInput } from "./password-input";

/**
 * /admin/login (also /admin/Login): email and password. A CSRF token is fetched before login;
 * success stores the session and returns to the page the guard came from, else /admin/dashboard.
 */
export function AdminLoginPage() {
  const id = useId();
  const location = useLocation();
  const navigate = useNavigate();
  const target = returnPath(location.state);
  const form = useForm({
    resolver: zodResolver(adminLoginRequestSchema),
    defaultValues: { email: "", password: "" },
  });
  const login = useMutation({
    mutationFn: loginAdmin,
    onSuccess: ({ token, admin }) => {
      storeAdminSession(token, admin);
      navigate(target, { replace: true });
    },
  });

  useDocumentTitle("Admin Login · Twinline");

  // Already signed in (the guard re-checks the token on arrival).
  if (getAdminToken() && !login.isSuccess) return <Navigate to={target} replace />;

  const failure = login.error
    ? login.error instanceof AdminLoginError
      ? login.error.message
      : ADMIN_LOGIN_ERRORS.generic
    : null;
  const { errors } = form.formState;

  return (
    <main
      id="main"
      className="relative flex min-h-dvh flex-col items-center justify-center overflow-hidden bg-gradient-to-b from-brand-50 via-white to-orange-50 px-4 py-16 dark:from-stone-950 dark:via-stone-950 dark:to-stone-900"
    >
      <div className="absolute top-4 right-4 left-4 flex items-center justify-between">
        <Link
          to="/"
          className="inline-flex items-center gap-1.5 rounded-full px-3 py-2 text-sm font-medium text-stone-600 hover:bg-white/70 hover:text-stone-900 dark:text-stone-300 dark:hover:bg-white/10 dark:hover:text-white"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to site
        </Link>
        <ThemeToggle />
      </div>
      <div className="w-full max-w-sm">
        <div className="mb-6 flex justify-center">
          <Logo />
        </div>
        <div className="rounded-3xl border border-stone-200 bg-white/90 p-6 shadow-xl shadow-stone-900/5 backdrop-blur sm:p-8 dark:border-white/10 dark:bg-stone-900/80">
          <div className="flex items-center gap-3">
            <span className="inline-flex size-10 items-center justify-center rounded-2xl bg-brand-100 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
              <ShieldCheck aria-hidden="true" className="size-5" />
            </span>
            <div>
              <h1 className="font-display text-xl font-bold text-stone-900 dark:text-white">
                Admin Login
              </h1>
              <p className="text-sm text-stone-600 dark:text-stone-400">
                Sign in to manage Twinline
              </p>
            </div>
          </div>
          <form
            className="mt-6 space-y-4"
            noValidate
            onSubmit={form.handleSubmit((values) => login.mutate(values))}
          >
            <div>
              <label
                htmlFor={`${id}-email`}
                className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
              >
                Email
              </label>
              <input
                id={`${id}-email`}
                type="email"
                autoComplete="username"
                placeholder="admin@example.com"
                className={inputClasses}
                aria-invalid={errors.email ? true : undefined}
                aria-describedby={errors.email ? `${id}-email-error` : undefined}
                {...form.register("email")}
              />
              {errors.email && (
                <p
                  id={`${id}-email-error`}
                  className="mt-1.5 text-sm text-red-600 dark:text-red-400"
                >
                  {errors.email.message}
                </p>
              )}
            </div>
            <div>
              <label
                htmlFor={`${id}-password`}
                className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
              >
                Password
              </label>
              <PasswordInput
                id={`${id}-password`}
                autoComplete="current-password"
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={errors.password ? `${id}-password-error` : undefined}
                {...form.register("password")}
              />
              {errors.password && (
                <p
                  id={`${id}-password-error`}
                  className="mt-1.5 text-sm text-red-600 dark:text-red-400"
                >
                  {errors.password.message}
                </p>
              )}
            </div>
            {failure && (
              <p
                role="alert"
                data-testid="admin-login-error"
                className="rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
              >
                {failure}
              </p>
            )}
            <button
              type="submit"
              disabled={login.isPending}
              className={buttonClasses("primary", "md", "w-full")}
            >
              {login.isPending && (
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              )}
              {login.isPending ? "Signing in..." : "Sign In"}
            </button>
          </form>
        </div>
      </div>
    </main>
  );
}
