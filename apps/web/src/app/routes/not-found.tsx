import { useEffect } from "react";
import { NotFoundScreen } from "@/components/errors/not-found-screen";

export function NotFoundRoute() {
  useEffect(() => {
    document.title = "Page not found · Twinline";
  }, []);
  return <NotFoundScreen />;
}
