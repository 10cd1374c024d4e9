import { House, Users } from "lucide-react";
import { Link } from "react-router";
import { NotFoundMessage } from "@/components/errors/not-found-message";
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
      <NotFoundMessage compact />
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
