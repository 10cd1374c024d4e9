import { NotFoundScreen } from "@/components/errors/not-found-screen";
import { useDocumentTitle } from "@/hooks/use-document-title";

export function NotFoundRoute() {
  useDocumentTitle("Page not found · Twinline");
  return <NotFoundScreen />;
}
