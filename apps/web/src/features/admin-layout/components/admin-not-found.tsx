import { House, Users } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "@/components/ui/button";
import { useDocumentTitle } from "@/hooks/use-document-title";

/** The 404 screen inside the admin layout: unknown admin paths and screens not built yet. */
export function AdminNotFound() {
  useDocumentTitle("Page not found · Twinline Admin");
  return (
    <section
      data-testid="not-found"
      className="mx-auto flex max-w-lg flex-col items-center py-16 text-center"
    >
      <p className="bg-gradient-to-r from-brand-600 to-orange-500 bg-clip-text font-display text-7xl font-black tracking-tight text-transparent sm:text-8xl">
        404
      </p>
      <h1 className="mt-4 font-display text-2xl font-bold text-stone-900 dark:text-white">
        Oops! Page not found
      </h1>
      <p className="mt-3 text-stone-600 dark:text-stone-300">
        The page you are looking for does not exist or has moved.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/admin/users" className={buttonClasses("primary", "md")}>
          <Users aria-hidden="true" className="size-4" />
          Go to Users
        </Link>
        <Link to="/" className={buttonClasses("secondary", "md")}>
          <House aria-hidden="true" className="size-4" />
          Return to Home
        </Link>
      </div>
    </section>
  );
}
