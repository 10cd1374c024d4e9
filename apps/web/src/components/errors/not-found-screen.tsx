import { House } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "@/components/ui/button";
import { StatusLayout } from "./status-layout";

/** 404: "Oops! Page not found" and a link home. */
export function NotFoundScreen() {
  return (
    <StatusLayout testId="not-found">
      <p className="font-display text-8xl font-black tracking-tight text-transparent bg-gradient-to-r from-brand-600 to-orange-500 bg-clip-text sm:text-9xl">
        404
      </p>
      <h1 className="mt-4 font-display text-2xl font-bold text-stone-900 sm:text-3xl dark:text-white">
        Oops! Page not found
      </h1>
      <p className="mt-3 text-stone-600 dark:text-stone-300">
        The page you are looking for does not exist or has moved.
      </p>
      <Link to="/" className={buttonClasses("primary", "md", "mt-8")}>
        <House aria-hidden="true" className="size-4" />
        Return to Home
      </Link>
    </StatusLayout>
  );
}
