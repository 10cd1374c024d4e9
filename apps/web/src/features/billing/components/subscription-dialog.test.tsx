import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { CONSENT_VERSIONS, routes } from "@twinline/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatDate } from "@/lib/format";
import { on, type RouteMock } from "@/test/api-mock";
import { jsonResponse, mockAuthApi } from "@/test/auth";
import { renderApp } from "@/test/render";
import { redirectTo } from "../api/billing";
import {
  activeSubscription,
  historyAnswer,
  noSubscription,
  plan,
  subscriptionAnswer,
} from "../test/fixtures";
import { meRoute, setUpBillingTests } from "../test/setup";

setUpBillingTests();

const basic = plan();
const pro = plan({ _id: "plan-pro", name: "Pro", price: 19.99, features: ["Priority"] });
const mini = plan({ _id: "plan-mini", name: "Mini", price: 4.99, features: [] });

function setup(overrides: RouteMock[] = []) {
  const api = mockAuthApi([
    ...overrides,
    on(routes.billing.creditBalance, { success: true, available: 10 }),
    on(routes.billing.paymentHistory, historyAnswer([])),
    on(routes.billing.packages, { success: true, data: [], packages: [] }),
    on(routes.billing.activePlans, { success: true, data: [basic, pro, mini] }),
    on(routes.billing.mySubscription, subscriptionAnswer(noSubscription)),
    meRoute,
  ]);
  renderApp("/dashboard/credits");
  return api;
}

async function openDialog(button: "Subscribe Now" | "Manage Subscription") {
  await userEvent.click(await screen.findByRole("button", { name: button }));
  return screen.findByRole("dialog");
}

describe("Subscription dialog", () => {
  it("without a subscription: Subscribe to a Plan, confirm needs a plan, then goes to checkout", async () => {
    const { callsTo } = setup([
      on(routes.billing.planCheckout, {
        success: true,
        url: "https://checkout.example/sub",
        sessionId: "cs_s",
      }),
    ]);
    const dialog = await openDialog("Subscribe Now");
    expect(
      within(dialog).getByRole("heading", { name: "Subscribe to a Plan" }),
    ).toBeInTheDocument();
    const confirm = await within(dialog).findByRole("button", { name: "Subscribe" });
    expect(confirm).toBeDisabled();
    expect(within(dialog).queryByTestId("current-subscription")).toBeNull();
    expect(within(dialog).queryByRole("button", { name: "Cancel Subscription" })).toBeNull();
    await userEvent.click(within(dialog).getByRole("button", { name: /Pro/ }));
    // The renewal terms of the chosen plan, unticked: Subscribe waits for the box.
    const box = within(dialog).getByRole("checkbox", {
      name: "$19.99 charged every month until you cancel; cancel any time in your dashboard.",
    });
    expect(box).not.toBeChecked();
    expect(confirm).toBeDisabled();
    await userEvent.click(box);
    expect(confirm).toBeEnabled();
    // Another plan asks again.
    await userEvent.click(within(dialog).getByRole("button", { name: /Mini/ }));
    expect(confirm).toBeDisabled();
    await userEvent.click(within(dialog).getByRole("button", { name: /Pro/ }));
    await userEvent.click(within(dialog).getByRole("checkbox"));
    await userEvent.click(confirm);
    await waitFor(() => expect(redirectTo.go).toHaveBeenCalledWith("https://checkout.example/sub"));
    expect(callsTo(routes.billing.planCheckout)[0]?.body).toEqual({
      planId: "plan-pro",
      consentVersion: CONSENT_VERSIONS.plan,
    });
  });

  it("shows a loading state, then Failed to load subscription plans with a retry", async () => {
    let fail: () => void = () => {};
    setup([
      on(
        routes.billing.activePlans,
        () =>
          new Promise<Response>((resolve) => {
            fail = () => resolve(jsonResponse({ success: false, message: "x" }, 500));
          }),
      ),
    ]);
    const dialog = await openDialog("Subscribe Now");
    expect(await within(dialog).findByRole("status")).toHaveTextContent(
      /Loading subscription plans/,
    );
    fail();
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Failed to load subscription plans",
    );
    expect(within(dialog).getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });

  it("with no plans, says so", async () => {
    setup([on(routes.billing.activePlans, { success: true, data: [] })]);
    const dialog = await openDialog("Subscribe Now");
    expect(
      await within(dialog).findByText("No subscription plans are available right now."),
    ).toBeInTheDocument();
  });

  it("active: Manage Subscription with the current block; the current plan cannot be confirmed", async () => {
    setup([on(routes.billing.mySubscription, subscriptionAnswer(activeSubscription(basic)))]);
    const dialog = await openDialog("Manage Subscription");
    expect(
      within(dialog).getByRole("heading", { name: "Manage Subscription" }),
    ).toBeInTheDocument();
    const current = await within(dialog).findByTestId("current-subscription");
    expect(current).toHaveTextContent("Basic");
    expect(current).toHaveTextContent("Active");
    expect(current).toHaveTextContent("Mar 1, 2025");
    expect(current).toHaveTextContent("Renews automatically");
    const confirm = within(dialog).getByRole("button", { name: "Change Plan" });
    await userEvent.click(within(dialog).getByRole("button", { name: /Basic/ }));
    expect(confirm).toBeDisabled();
    await userEvent.click(within(dialog).getByRole("button", { name: /Pro/ }));
    expect(within(dialog).getByTestId("change-banner")).toHaveTextContent("Upgrade to Pro");
    await userEvent.click(within(dialog).getByRole("button", { name: /Mini/ }));
    expect(within(dialog).getByTestId("change-banner")).toHaveTextContent("Downgrade to Mini");
    await userEvent.click(within(dialog).getByRole("button", { name: /Basic/ }));
    expect(within(dialog).queryByTestId("change-banner")).toBeNull();
  });

  it("changes the plan at once and shows the proration notice; Cancel is then hidden", async () => {
    const { callsTo } = setup([
      on(routes.billing.mySubscription, subscriptionAnswer(activeSubscription(basic))),
      on(routes.billing.upgrade, {
        success: true,
        message: "Subscription plan changed successfully",
        subscription: {
          ...activeSubscription(pro),
          proratedAmount: 5.5,
          paidFromAccountCredit: 0,
          currency: "usd",
          previousPlan: { _id: basic._id, name: basic.name, price: basic.price },
          change: "upgrade",
        },
      }),
    ]);
    const dialog = await openDialog("Manage Subscription");
    expect(
      await within(dialog).findByRole("button", { name: "Cancel Subscription" }),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: /Pro/ }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Change Plan" }));
    const success = await within(dialog).findByTestId("change-success");
    expect(success).toHaveTextContent("Subscription plan changed successfully");
    expect(success).toHaveTextContent("$5.50 was charged now for the rest of this period.");
    expect(callsTo(routes.billing.upgrade)[0]?.body).toEqual({ planId: "plan-pro" });
    expect(within(dialog).queryByRole("button", { name: "Cancel Subscription" })).toBeNull();
    expect(within(dialog).getByRole("button", { name: "Change Plan" })).toBeDisabled();
  });

  it("a downgrade says the unused part is credited to the next invoice, with the amount", async () => {
    setup([
      on(routes.billing.mySubscription, subscriptionAnswer(activeSubscription(basic))),
      on(routes.billing.upgrade, {
        success: true,
        message: "Subscription plan changed successfully",
        subscription: {
          ...activeSubscription(mini),
          proratedAmount: -2.25,
          paidFromAccountCredit: 0,
          currency: "usd",
          previousPlan: { _id: basic._id, name: basic.name, price: basic.price },
          change: "downgrade",
        },
      }),
    ]);
    const dialog = await openDialog("Manage Subscription");
    await userEvent.click(await within(dialog).findByRole("button", { name: /Mini/ }));
    expect(within(dialog).getByTestId("change-banner")).toHaveTextContent(
      "credited to your next invoice",
    );
    await userEvent.click(within(dialog).getByRole("button", { name: "Change Plan" }));
    const success = await within(dialog).findByTestId("change-success");
    expect(success).toHaveTextContent("$2.25 is credited to your next invoice.");
  });

  it("an upgrade paid from the account credit says so, as the banner announced", async () => {
    setup([
      on(routes.billing.mySubscription, subscriptionAnswer(activeSubscription(basic))),
      on(routes.billing.upgrade, {
        success: true,
        message: "Subscription plan changed successfully",
        subscription: {
          ...activeSubscription(pro),
          proratedAmount: 0,
          paidFromAccountCredit: 10,
          currency: "usd",
          previousPlan: { _id: basic._id, name: basic.name, price: basic.price },
          change: "upgrade",
        },
      }),
    ]);
    const dialog = await openDialog("Manage Subscription");
    await userEvent.click(await within(dialog).findByRole("button", { name: /Pro/ }));
    expect(within(dialog).getByTestId("change-banner")).toHaveTextContent(
      "charged at once, paid from your account credit first",
    );
    await userEvent.click(within(dialog).getByRole("button", { name: "Change Plan" }));
    const success = await within(dialog).findByTestId("change-success");
    expect(success).toHaveTextContent(
      "$10.00 paid from your account credit for the rest of this period.",
    );
    expect(success).not.toHaveTextContent("No proration applies");
  });

  it("toasts Checkout Error / Failed to process subscription change", async () => {
    setup([
      on(routes.billing.mySubscription, subscriptionAnswer(activeSubscription(basic))),
      on(routes.billing.upgrade, () => jsonResponse({ success: false, message: "x" }, 500)),
    ]);
    const dialog = await openDialog("Manage Subscription");
    await userEvent.click(await within(dialog).findByRole("button", { name: /Pro/ }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Change Plan" }));
    expect(await screen.findByText("Checkout Error")).toBeInTheDocument();
    expect(screen.getByText("Failed to process subscription change")).toBeInTheDocument();
  });

  it("cancels at period end, or toasts Failed to cancel subscription", async () => {
    let fail = true;
    const { callsTo } = setup([
      on(routes.billing.mySubscription, subscriptionAnswer(activeSubscription(basic))),
      on(routes.billing.cancel, () =>
        fail
          ? jsonResponse({ success: false, message: "x" }, 500)
          : jsonResponse({
              success: true,
              message: "Your subscription will be canceled at the end of the current period",
              subscription: activeSubscription(basic, { cancelAtPeriodEnd: true }),
            }),
      ),
    ]);
    const dialog = await openDialog("Manage Subscription");
    const statement = `Your plan stays until ${formatDate("2025-03-01T00:00:00.000Z")}; you will not be charged again.`;
    await userEvent.click(
      await within(dialog).findByRole("button", { name: "Cancel Subscription" }),
    );
    // Asked once, saying what happens; keeping it changes nothing.
    let ask = await screen.findByRole("alertdialog", { name: "Cancel your subscription?" });
    expect(ask).toHaveTextContent(statement);
    expect(statement).toBe("Your plan stays until Mar 1, 2025; you will not be charged again.");
    await userEvent.click(within(ask).getByRole("button", { name: "Keep subscription" }));
    expect(callsTo(routes.billing.cancel)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel Subscription" }));
    ask = await screen.findByRole("alertdialog");
    await userEvent.click(within(ask).getByRole("button", { name: "Cancel subscription" }));
    expect(await screen.findByText("Failed to cancel subscription")).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel Subscription" }));
    ask = await screen.findByRole("alertdialog");
    await userEvent.click(within(ask).getByRole("button", { name: "Cancel subscription" }));
    expect(await screen.findByText(statement)).toBeInTheDocument();
    expect(callsTo(routes.billing.cancel)).toHaveLength(2);
  });

  it("a subscription set to cancel resumes with one button, no plan picked again", async () => {
    const { callsTo } = setup([
      on(
        routes.billing.mySubscription,
        subscriptionAnswer(
          activeSubscription(basic, {
            cancelAtPeriodEnd: true,
            status: "canceled",
            autoRenew: false,
          }),
        ),
      ),
      on(routes.billing.resume, {
        success: true,
        message: "Your subscription will renew at the end of the current period",
        subscription: activeSubscription(basic),
      }),
    ]);
    const dialog = await openDialog("Manage Subscription");
    await userEvent.click(
      await within(dialog).findByRole("button", { name: "Resume subscription" }),
    );
    expect(
      await screen.findByText("Your subscription is resumed: it renews at the end of the period"),
    ).toBeInTheDocument();
    expect(callsTo(routes.billing.resume)).toHaveLength(1);
    expect(callsTo(routes.billing.upgrade)).toHaveLength(0);
  });

  it("a subscription set to cancel at period end shows Canceling and no Cancel button; a plan choice changes it", async () => {
    const { callsTo } = setup([
      on(
        routes.billing.mySubscription,
        subscriptionAnswer(
          activeSubscription(basic, {
            cancelAtPeriodEnd: true,
            status: "canceled",
            autoRenew: false,
          }),
        ),
      ),
    ]);
    const dialog = await openDialog("Manage Subscription");
    const current = await within(dialog).findByTestId("current-subscription");
    expect(
      within(dialog).getByRole("heading", { name: "Manage Subscription" }),
    ).toBeInTheDocument();
    expect(current).toHaveTextContent("Canceling");
    expect(current).toHaveTextContent("Will not renew");
    expect(within(dialog).queryByRole("button", { name: "Cancel Subscription" })).toBeNull();
    // Still in force: the same plan may be chosen again (renewal resumes), by a plan change.
    await userEvent.click(within(dialog).getByRole("button", { name: /Basic/ }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Change Plan" }));
    await waitFor(() => expect(callsTo(routes.billing.upgrade)).toHaveLength(1));
    expect(callsTo(routes.billing.planCheckout)).toHaveLength(0);
  });

  it("a free trial shows Trialing until its end, on the page and in the dialog (issue 27)", async () => {
    const trial = activeSubscription(basic, { status: "trialing", providerStatus: "trialing" });
    setup([on(routes.billing.mySubscription, subscriptionAnswer(trial))]);
    const until = `Trialing until ${formatDate(trial.endDate)}`;
    expect(await screen.findByTestId("subscription-summary")).toHaveTextContent(until);
    const dialog = await openDialog("Manage Subscription");
    const current = await within(dialog).findByTestId("current-subscription");
    expect(current).toHaveTextContent(until);
    expect(current).toHaveTextContent("Renews automatically");
  });
});

describe("Subscription dialog: a plan's free trial (decision 0083)", () => {
  const weekly = plan({
    _id: "plan-week",
    name: "Weekly",
    price: 9.99,
    trialDays: 7,
    features: [],
  });
  const daily = plan({ _id: "plan-day", name: "Daily", price: 4.5, trialDays: 1, features: [] });
  const quarterly = plan({
    _id: "plan-quarter",
    name: "Quarterly",
    price: 24.99,
    currency: "eur",
    interval: "month",
    intervalCount: 3,
    trialDays: 14,
    features: [],
  });
  const plans = { success: true as const, data: [basic, weekly, daily, quarterly] };

  afterEach(() => {
    vi.useRealTimers();
  });

  const card = (dialog: HTMLElement, name: RegExp) => within(dialog).getByRole("button", { name });

  it("announces the trial on its cards (1 day, N days) with the price charged after it; other cards unchanged", async () => {
    setup([on(routes.billing.activePlans, plans)]);
    const dialog = await openDialog("Subscribe Now");
    expect(await within(dialog).findAllByTestId("plan-trial")).toHaveLength(3);
    expect(card(dialog, /Weekly/)).toHaveTextContent("7-day free trial");
    expect(card(dialog, /Weekly/)).toHaveTextContent("then $9.99/month");
    expect(card(dialog, /Daily/)).toHaveTextContent("1-day free trial");
    expect(card(dialog, /Daily/)).not.toHaveTextContent("1-days");
    expect(card(dialog, /Daily/)).toHaveTextContent("then $4.50/month");
    expect(card(dialog, /Quarterly/)).toHaveTextContent("14-day free trial");
    expect(card(dialog, /Quarterly/)).toHaveTextContent("then €24.99 every 3 months");
    // No trial: the card is as before, price and period.
    const plain = card(dialog, /Basic/);
    expect(plain).not.toHaveTextContent(/free trial/);
    expect(plain).toHaveTextContent("$9.99");
    expect(plain).toHaveTextContent("per month");
  });

  it("the consent of a trial plan says when the card is charged; a plan without one keeps its words", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-27T10:00:00Z"));
    const { callsTo } = setup([
      on(routes.billing.activePlans, plans),
      on(routes.billing.planCheckout, {
        success: true,
        url: "https://checkout.example/trial",
        sessionId: "cs_t",
      }),
    ]);
    const dialog = await openDialog("Subscribe Now");
    await userEvent.click(await within(dialog).findByRole("button", { name: /Weekly/ }));
    const box = within(dialog).getByRole("checkbox", {
      name:
        "7-day free trial, then $9.99 charged every month until you cancel. Your card is charged " +
        "$9.99 automatically when the trial ends on Dec 4, 2026 (UTC) unless you cancel before then; " +
        "cancel any time in your dashboard.",
    });
    // A trial checkout takes no promotion code (the server refuses one).
    expect(within(dialog).queryByLabelText("Promotion code")).toBeNull();
    await userEvent.click(card(dialog, /Daily/));
    expect(within(dialog).getByRole("checkbox")).toHaveAccessibleName(
      "1-day free trial, then $4.50 charged every month until you cancel. Your card is charged " +
        "$4.50 automatically when the trial ends on Nov 28, 2026 (UTC) unless you cancel before then; " +
        "cancel any time in your dashboard.",
    );
    await userEvent.click(card(dialog, /Basic/));
    expect(within(dialog).getByRole("checkbox")).toHaveAccessibleName(
      "$9.99 charged every month until you cancel; cancel any time in your dashboard.",
    );
    expect(within(dialog).getByLabelText("Promotion code")).toBeInTheDocument();
    await userEvent.click(card(dialog, /Weekly/));
    expect(box).not.toBeChecked();
    await userEvent.click(within(dialog).getByRole("checkbox"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Subscribe" }));
    await waitFor(() =>
      expect(redirectTo.go).toHaveBeenCalledWith("https://checkout.example/trial"),
    );
    expect(callsTo(routes.billing.planCheckout)[0]?.body).toEqual({
      planId: "plan-week",
      consentVersion: CONSENT_VERSIONS.plan,
    });
  });

  it("a fan who had a subscription gets no trial: the cards and the consent do not offer one", async () => {
    setup([
      on(routes.billing.activePlans, plans),
      on(
        routes.billing.mySubscription,
        subscriptionAnswer({
          ...noSubscription,
          _id: "sub-old",
          providerStatus: "canceled",
        }),
      ),
    ]);
    const dialog = await openDialog("Subscribe Now");
    await userEvent.click(await within(dialog).findByRole("button", { name: /Weekly/ }));
    expect(within(dialog).queryByTestId("plan-trial")).toBeNull();
    expect(card(dialog, /Weekly/)).toHaveTextContent("per month");
    expect(within(dialog).getByRole("checkbox")).toHaveAccessibleName(
      "$9.99 charged every month until you cancel; cancel any time in your dashboard.",
    );
  });
});
