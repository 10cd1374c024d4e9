import { isRouteErrorResponse, useRouteError } from "react-router";
import { ErrorScreen } from "./error-screen";
import { NotFoundScreen } from "./not-found-screen";

/** The router's errorElement: a thrown 404 shows the 404 screen, anything else the error screen. */
export function RouteErrorScreen() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  return <ErrorScreen error={error} />;
}
