// Upload routes of the table (decision 0086), apart from route-client so that a caller of
// callAddress (the landing page) does not load the upload code.
import type { RouteAnswer, RouteDefinition } from "@twinline/contracts";
import { routeUrl, tokenFor } from "./route-client";
import { type UploadWithProgressOptions, uploadWithProgress } from "./upload";

/** An upload route through XMLHttpRequest, reporting its progress. */
export async function uploadRoute<R extends RouteDefinition & { kind: "upload" }>(
  route: R,
  formData: FormData,
  options: Omit<UploadWithProgressOptions, "token" | "schema" | "method"> & {
    params?: Record<string, string | number>;
  } = {},
): Promise<RouteAnswer<R>> {
  const { params, ...rest } = options;
  return (await uploadWithProgress(routeUrl(route, params), formData, {
    ...rest,
    method: route.method === "PUT" ? "PUT" : "POST",
    token: tokenFor(route.access),
    schema: route.response,
  })) as RouteAnswer<R>;
}
