import { House } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "@/components/ui/button";
import { NotFoundMessage } from "./not-found-message";
import { StatusLayout } from "./status-layout";

/** 404: "Oops! Page not found" and a link home. */
export function NotFoundScreen() {
  return (
    <StatusLayout testId="not-found">
      <NotFoundMessage />
      <Link to="/" className={buttonClasses("primary", "md", "mt-8")}>
        <House aria-hidden="true" className="size-4" />
        Return to Home
      </Link>
    </StatusLayout>
  );
}
