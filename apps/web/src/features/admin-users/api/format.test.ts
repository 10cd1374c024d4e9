import { describe, expect, it } from "vitest";
import { planDurationLabel, renewalText, roleLabel, subscriptionStatusLabel } from "./format";

describe("admin user formatting", () => {
  it("shows subscription status as Active, Canceled or None", () => {
    expect(subscriptionStatusLabel("active")).toBe("Active");
    expect(subscriptionStatusLabel("canceled")).toBe("Canceled");
    expect(subscriptionStatusLabel("inactive")).toBe("None");
    expect(subscriptionStatusLabel(null)).toBe("None");
  });

  it("names durations: 1 monthly, 3 quarterly, else yearly", () => {
    expect(planDurationLabel(1)).toBe("monthly");
    expect(planDurationLabel(3)).toBe("quarterly");
    expect(planDurationLabel(12)).toBe("yearly");
    expect(planDurationLabel(0)).toBe("yearly");
  });

  it("says Auto-renews only when autoRenew is on and cancelAtPeriodEnd is off", () => {
    expect(renewalText({ autoRenew: true, cancelAtPeriodEnd: false })).toBe("Auto-renews");
    expect(renewalText({ autoRenew: true, cancelAtPeriodEnd: true })).toBe("Cancels at period end");
    expect(renewalText({ autoRenew: false, cancelAtPeriodEnd: false })).toBe(
      "Cancels at period end",
    );
  });

  it("formats roles", () => {
    expect(roleLabel("admin")).toBe("Admin");
    expect(roleLabel("user")).toBe("User");
  });
});
