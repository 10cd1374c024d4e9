import { useParams } from "react-router";
import { AuthPage } from "@/features/auth/components/auth-page";
import { ResetPasswordPage } from "@/features/auth/components/reset-password-page";

/** `/auth`: the Login and Sign Up tabs. */
export function AuthRoute() {
  return <AuthPage />;
}

/** `/reset-password/{resettoken}` (and `/reset-password` without one: Invalid Reset Link). */
export function ResetPasswordRoute() {
  const { resettoken } = useParams();
  return <ResetPasswordPage key={resettoken} token={resettoken} />;
}
