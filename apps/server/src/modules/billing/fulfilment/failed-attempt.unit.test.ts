import { describe, expect, it } from "vitest";
import type { PaymentEvent } from "../../../providers/payments/index.ts";
import { attemptOfEvent } from "./webhook-events.ts";

const failedInvoice = (attemptCount: unknown): PaymentEvent => ({
  id: "evt_1",
  type: "invoice.payment_failed",
  created: 1_764_244_800,
  data: { object: { id: "in_1", object: "invoice", attempt_count: attemptCount } },
});

describe("which attempt a declined renewal's event tells of", () => {
  it("is the event's own count, so a second decline is a second failed payment and e-mail", () => {
    expect(attemptOfEvent(failedInvoice(1))).toBe(1);
    expect(attemptOfEvent(failedInvoice(2))).toBe(2);
  });

  it("is unknown (the re-read invoice's count is used) when the event carries none to trust", () => {
    expect(attemptOfEvent(failedInvoice(undefined))).toBeNull();
    expect(attemptOfEvent(failedInvoice(0))).toBeNull();
    expect(attemptOfEvent(failedInvoice(1.5))).toBeNull();
    expect(attemptOfEvent(failedInvoice("2"))).toBeNull();
  });
});
