import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { detailUser, mockAdminApi, signInAdmin } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

// The operator's money tools on the user details page (issue 16): each behind its dialog, with
// the server's reason shown in place when it refuses.

configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  toast.remove();
});

const purchase = {
  _id: "pay1",
  transactionDate: "2025-02-03T10:00:00.000Z",
  userId: null,
  credits: 500,
  amount: 10,
  currency: "usd",
  status: "success",
  refundedAmount: 0,
  packageId: null,
  stripePaymentId: "pi_1",
  metadata: { packageName: "Big Pack", invoiceNumber: null },
};
const page = (data: unknown[]) => ({
  success: true,
  data,
  pagination: { total: data.length, page: 1, limit: 100, pages: 1 },
});
const refundAnswer = {
  success: true,
  message: "The payment was refunded",
  data: {
    refund: {
      _id: "r1",
      paymentId: "pay1",
      kind: "admin",
      status: "succeeded",
      amount: 4,
      currency: "usd",
      reason: "Partial",
      creditsTaken: 200,
      creditsShortfall: 0,
      providerRefundId: "re_1",
      createdAt: "2025-02-04T10:00:00.000Z",
    },
    payment: { _id: "pay1", status: "success", amount: 10, refundedAmount: 4, currency: "usd" },
    balance: 400,
  },
};

describe("money tools on the user details page", () => {
  it("refunds a purchase after the confirm dialog, sending the amount, reason and a request id", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminUsers.detail, () => jsonResponse({ success: true, data: detailUser() })),
      on(routes.adminBilling.userTransactions, () => jsonResponse(page([purchase]))),
      on(routes.adminBilling.userSubscriptionTransactions, () => jsonResponse(page([]))),
      on(routes.adminBilling.refundPayment, ({ body }) =>
        (body as { amount?: number }).amount === 20
          ? jsonResponse(
              {
                success: false,
                message: "The refund amount is more than what is left to refund",
              },
              400,
            )
          : jsonResponse(refundAnswer),
      ),
    ]);
    const user = userEvent.setup();
    renderApp("/admin/users/u1?tab=credits");
    await user.click(await screen.findByRole("button", { name: "Refund" }));
    const dialog = await screen.findByTestId("refund-dialog");
    expect(dialog).toHaveTextContent("500 credits, paid $10.00");
    // A package: nothing to end.
    expect(within(dialog).queryByText("Also end the subscription now")).toBeNull();

    // Nothing is sent without a reason.
    await user.click(within(dialog).getByRole("button", { name: "Refund $10.00" }));
    expect(within(dialog).getByText("A reason is required")).toBeInTheDocument();
    expect(api.callsTo(routes.adminBilling.refundPayment, { id: "pay1" })).toHaveLength(0);

    // The server's refusal stays in the dialog.
    await user.type(within(dialog).getByLabelText("Reason"), "Partial");
    await user.type(within(dialog).getByLabelText(/^Amount/), "20");
    expect(within(dialog).getByText("Enter an amount between 0.01 and 10.00")).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/^Amount/));
    await user.type(within(dialog).getByLabelText(/^Amount/), "4");
    await user.click(within(dialog).getByRole("button", { name: "Refund $4.00" }));
    await waitFor(() => expect(screen.queryByTestId("refund-dialog")).toBeNull());
    expect(await screen.findByText("The payment was refunded")).toBeInTheDocument();
    const [sent] = api.callsTo(routes.adminBilling.refundPayment, { id: "pay1" });
    expect(sent?.body).toMatchObject({ amount: 4, reason: "Partial" });
    expect((sent?.body as { requestId?: string } | undefined)?.requestId).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it("refunding the latest plan payment offers, and explains, ending the subscription now", async () => {
    signInAdmin();
    const planPayment = {
      ...purchase,
      _id: "sub-pay1",
      credits: 0,
      amount: 20,
      planId: null,
      planName: "Pro",
      invoiceId: "in_1",
      metadata: { packageName: null, invoiceNumber: "INV-1" },
    };
    const api = mockAdminApi([
      on(routes.adminUsers.detail, () =>
        jsonResponse({
          success: true,
          data: detailUser({
            subscription: {
              status: "active",
              plan: {
                name: "Pro",
                price: 20,
                currency: "usd",
                duration: 1,
                interval: "month",
                intervalCount: 1,
              },
              currentPeriodStart: "2025-02-03T10:00:00.000Z",
              currentPeriodEnd: "2025-03-03T10:00:00.000Z",
              autoRenew: true,
              cancelAtPeriodEnd: false,
              stripeSubscriptionId: null,
            },
          }),
        }),
      ),
      on(routes.adminBilling.userTransactions, () => jsonResponse(page([]))),
      on(routes.adminBilling.userSubscriptionTransactions, () => jsonResponse(page([planPayment]))),
      on(routes.adminBilling.refundPayment, () => jsonResponse(refundAnswer)),
    ]);
    const user = userEvent.setup();
    renderApp("/admin/users/u1?tab=subscriptions");
    await user.click(await screen.findByRole("button", { name: "Refund" }));
    const dialog = await screen.findByTestId("refund-dialog");
    expect(within(dialog).getByTestId("ends-plan-note")).toHaveTextContent(
      "A refund alone does not stop the plan",
    );
    await user.click(within(dialog).getByLabelText("Also end the subscription now"));
    await user.type(within(dialog).getByLabelText("Reason"), "Never used it");
    await user.click(within(dialog).getByRole("button", { name: "Refund $20.00" }));
    await waitFor(() => expect(screen.queryByTestId("refund-dialog")).toBeNull());
    const [sent] = api.callsTo(routes.adminBilling.refundPayment, { id: "sub-pay1" });
    expect(sent?.body).toMatchObject({ reason: "Never used it", endSubscription: true });
  });

  it("offers the refund of a failed payment that was charged anyway, not of a declined one", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminUsers.detail, () => jsonResponse({ success: true, data: detailUser() })),
      on(routes.adminBilling.userTransactions, () =>
        jsonResponse(
          page([
            {
              ...purchase,
              status: "failed",
              amount: 15,
              failureReason: "Paid 15.00 USD for a sale of 10.00 USD: nothing granted",
              refundable: true,
            },
            {
              ...purchase,
              _id: "pay2",
              status: "failed",
              failureReason: "Your card was declined.",
              refundable: false,
            },
          ]),
        ),
      ),
      on(routes.adminBilling.userSubscriptionTransactions, () => jsonResponse(page([]))),
    ]);
    const user = userEvent.setup();
    renderApp("/admin/users/u1?tab=credits");
    const buttons = await screen.findAllByRole("button", { name: "Refund" });
    expect(buttons).toHaveLength(1);
    await user.click(buttons[0] as HTMLElement);
    const dialog = await screen.findByTestId("refund-dialog");
    expect(within(dialog).getByRole("button", { name: "Refund $15.00" })).toBeInTheDocument();
  });

  it("after a refund in part, offers only what is left to refund", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminUsers.detail, () => jsonResponse({ success: true, data: detailUser() })),
      on(routes.adminBilling.userTransactions, () =>
        jsonResponse(page([{ ...purchase, amount: 31.99, refundedAmount: 10 }])),
      ),
      on(routes.adminBilling.userSubscriptionTransactions, () => jsonResponse(page([]))),
    ]);
    const user = userEvent.setup();
    renderApp("/admin/users/u1?tab=credits");
    expect(await screen.findByText("Refunded $10.00 of $31.99")).toBeInTheDocument();
    await user.click(await screen.findByRole("button", { name: "Refund" }));
    const dialog = await screen.findByTestId("refund-dialog");
    expect(dialog).toHaveTextContent("($10.00 refunded already)");
    expect(within(dialog).getByRole("button", { name: "Refund $21.99" })).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Amount/), "22");
    expect(within(dialog).getByText("Enter an amount between 0.01 and 21.99")).toBeInTheDocument();
  });

  it("changes credits and shows the server's reason when it refuses", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminUsers.detail, () =>
        jsonResponse({ success: true, data: detailUser({ credits: 120 }) }),
      ),
      on(routes.adminBilling.adjustCredits, () =>
        jsonResponse({ success: false, message: "The user's balance cannot go below zero" }, 400),
      ),
    ]);
    const user = userEvent.setup();
    renderApp("/admin/users/u1");
    await user.click(await screen.findByRole("button", { name: "Change credits" }));
    const dialog = await screen.findByTestId("adjust-credits-dialog");
    expect(dialog).toHaveTextContent("has 120 credits");
    await user.type(within(dialog).getByLabelText(/^Credits/), "-100");
    await user.type(within(dialog).getByLabelText("Reason"), "Abuse");
    await user.click(within(dialog).getByRole("button", { name: "Take back 100 credits" }));
    expect(
      await within(dialog).findByText("The user's balance cannot go below zero"),
    ).toBeInTheDocument();
    expect(api.callsTo(routes.adminBilling.adjustCredits, { userId: "u1" })[0]?.body).toMatchObject(
      {
        delta: -100,
        reason: "Abuse",
      },
    );
  });

  it("offers cancel and resume as the subscription allows", async () => {
    signInAdmin();
    const subscription = {
      status: "active" as const,
      plan: {
        name: "Gold",
        price: 19.99,
        currency: "usd" as const,
        duration: 1,
        interval: "month" as const,
        intervalCount: 1,
      },
      currentPeriodStart: "2025-02-01T00:00:00.000Z",
      currentPeriodEnd: "2099-03-01T00:00:00.000Z",
      autoRenew: false,
      cancelAtPeriodEnd: true,
      stripeSubscriptionId: "sub_1",
    };
    const api = mockAdminApi([
      on(routes.adminUsers.detail, () =>
        jsonResponse({ success: true, data: detailUser({ subscription }) }),
      ),
      on(routes.adminBilling.resumeSubscription, () =>
        jsonResponse({ success: false, message: "This subscription is not set to cancel" }, 400),
      ),
    ]);
    const user = userEvent.setup();
    renderApp("/admin/users/u1");
    const actions = await screen.findByTestId("money-actions");
    expect(within(actions).queryByRole("button", { name: "Cancel at period end" })).toBeNull();
    await user.click(within(actions).getByRole("button", { name: "Resume subscription" }));
    const dialog = await screen.findByTestId("subscription-action-dialog");
    expect(dialog).toHaveTextContent("renews again on Mar 1, 2099");
    await user.type(within(dialog).getByLabelText("Reason"), "Asked");
    await user.click(within(dialog).getByRole("button", { name: "Resume" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "This subscription is not set to cancel",
    );
    expect(api.callsTo(routes.adminBilling.resumeSubscription, { userId: "u1" })[0]?.body).toEqual({
      reason: "Asked",
    });
  });
});
