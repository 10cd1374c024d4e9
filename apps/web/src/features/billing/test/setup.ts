import { configure } from "@testing-library/react";
import { routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, beforeEach, vi } from "vitest";
import { on } from "@/test/api-mock";
import { makeUser, storeSession } from "@/test/auth";
import { redirectTo } from "../api/billing";

/** The signed-in fan's `me` (routes.auth.me), for mockAuthApi's routes. */
export const meRoute = on(routes.auth.me, { success: true, data: makeUser() });

/**
 * What every billing screen test file sets up, called once at its top: the page never leaves
 * (each redirect is only recorded, on `redirectTo.go`), toasts and mocks are cleared after each
 * test, and, unless `signedIn` is false, a fan's session is stored before it.
 */
export function setUpBillingTests({ signedIn = true }: { signedIn?: boolean } = {}) {
  configure({ asyncUtilTimeout: 5000 });
  // The first render loads a lazy bundle; a busy shared machine needs more than the default 5 s.
  vi.setConfig({ testTimeout: 20_000 });
  beforeEach(() => {
    vi.spyOn(redirectTo, "go").mockImplementation(() => {});
    if (signedIn) storeSession();
  });
  afterEach(() => {
    toast.remove();
    vi.restoreAllMocks();
  });
}
