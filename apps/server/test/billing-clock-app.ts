import { afterAll, beforeAll } from "vitest";
import { adminSession } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";
import { createManualClock, type ManualClock } from "./manual-clock.ts";

const DAY_MS = 24 * 60 * 60_000;

export interface BillingClockApp {
  readonly t: TestApp;
  readonly admin: string;
  readonly clock: ManualClock;
  /** The billing clock's now, as the API writes times. */
  billingNow(): string;
}

/**
 * An app whose billing clock runs `days` behind the wall clock, sweeps off, for the describe
 * block it is called in: a time read or written on the wall clock instead of the billing one
 * is days off and shows.
 */
export function useAppOnBillingClockBehind(days: number): BillingClockApp {
  let app: TestApp | undefined;
  let token = "";
  const clock = createManualClock(Date.now() - days * DAY_MS);
  beforeAll(async () => {
    app = await createTestApp({ billingClock: clock, billingSweeps: false });
    token = (await adminSession(app)).token;
  });
  afterAll(async () => {
    await app?.close();
  });
  return {
    get t() {
      if (!app) throw new Error("The billing-clock app is used before its beforeAll ran");
      return app;
    },
    get admin() {
      return token;
    },
    clock,
    billingNow: () => new Date(clock.now()).toISOString(),
  };
}
