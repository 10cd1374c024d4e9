import type { PaymentsProvider } from "./types.ts";

/** No Stripe key: the sandbox checkout of this app (the billing issue builds it out). */
export function createSandboxPayments(): PaymentsProvider {
  return {
    mode: "sandbox",
    async retrieveBalance() {
      return [];
    },
  };
}
