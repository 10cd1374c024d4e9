import { MONEY_TOOLS_MESSAGES } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { toMinor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { ProviderError } from "../../../providers/errors.ts";
import { refundAmount } from "./refund-claim.ts";
import { isProviderRefusal } from "./refund-execution.ts";

describe("how much a refund gives back", () => {
  it("gives back all that is left when no amount is asked", () => {
    expect(refundAmount(999, null)).toBe(999);
  });

  it("gives back exactly what is left, and refuses a cent more naming what is refundable", () => {
    expect(refundAmount(499, toMinor(4.99))).toBe(499);
    let refused: unknown;
    try {
      refundAmount(499, toMinor(5));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({
      statusCode: 400,
      message: MONEY_TOOLS_MESSAGES.amountTooLarge,
      details: { field: "amount", refundable: 4.99 },
    });
  });

  it("refuses a payment with nothing left to give back", () => {
    expect(() => refundAmount(0, null)).toThrow(MONEY_TOOLS_MESSAGES.nothingLeft);
  });
});

describe("a provider that answered no, against one that did not answer", () => {
  it("fails the claim only when the provider answered", () => {
    expect(isProviderRefusal(new ProviderError("Stripe", "No such charge", 404))).toBe(true);
    expect(isProviderRefusal(new ProviderError("Stripe", "socket hang up"))).toBe(false);
    expect(isProviderRefusal(new Error("ECONNRESET"))).toBe(false);
  });
});
