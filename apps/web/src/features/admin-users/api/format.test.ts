import { describe, expect, it } from "vitest";
import { planDurationLabel, renewalText, roleLabel, subscriptionStatusLabel } from "./format";

describe("admin user formatting", () => {
  it("shows subscription status as Active, Canceled or None", () => {
    expect(subscriptionStatusLabel("active")).toBe("Active");
    expect(subscriptionStatusLabel("canceled")).toBe("Canceled");
    expect(subscriptionStatusLabel("trialing")).toBe("Trialing");
    expect(subscriptionStatusLabel("inactive")).toBe("None");
    expect(subscriptionStatusLabel(null)).toBe("None");
  });

  it("names durations: 1 monthly, 3 quarterly, else yearly; weeks and days by interval", () => {
    const months = (duration: number) =>
      planDurationLabel({ duration, interval: "month", intervalCount: duration });
    expect(months(1)).toBe("monthly");
    expect(months(3)).toBe("quarterly");
    expect(months(6)).toBe("yearly");
    expect(planDurationLabel({ duration: 12, interval: "year", intervalCount: 1 })).toBe("yearly");
    expect(planDurationLabel({ duration: 0, interval: "week", intervalCount: 1 })).toBe("weekly");
    expect(planDurationLabel({ duration: 0, interval: "day", intervalCount: 1 })).toBe("daily");
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
