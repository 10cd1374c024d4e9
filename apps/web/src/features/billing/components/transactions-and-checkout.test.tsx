import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { on } from "@/test/api-mock";
import { jsonResponse, mockAuthApi, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";
import { redirectTo } from "../api/billing";
import {
  historyAnswer,
  noSubscription,
  plan,
  session,
  subscriptionAnswer,
  transaction,
} from "../test/fixtures";
import { meRoute, setUpBillingTests } from "../test/setup";

setUpBillingTests({ signedIn: false });

describe("/dashboard/transactions", () => {
  it("shows credit purchases, then subscription payments, 10 per page", async () => {
    storeSession();
    const { fetchMock } = mockAuthApi([
      on(routes.billing.paymentHistory, historyAnswer([transaction()], 1, 10, 25)),
      on(
        routes.billing.subscriptionPaymentHistory,
        historyAnswer(
          [
            transaction({
              _id: "s1",
              kind: "subscription",
              credits: 0,
              amount: 19.99,
              planName: "Pro",
              status: "pending",
              metadata: { packageName: null, invoiceNumber: "INV-7" },
            }),
          ],
          1,
          10,
        ),
      ),
      meRoute,
    ]);
    renderApp("/dashboard/transactions");
    expect(await screen.findByRole("tab", { name: "Credit Purchases" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    const credits = await screen.findByTestId("credits-transactions");
    expect(await within(credits).findByText("Starter")).toBeInTheDocument();
    expect(within(credits).getByText("Page 1 of 3")).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([url]) =>
        String(url).includes(`${routes.billing.paymentHistory.path}?page=1&limit=10`),
      ),
    ).toBe(true);
    await userEvent.click(screen.getByRole("tab", { name: "Subscription Payments" }));
    const subs = await screen.findByTestId("subscriptions-transactions");
    expect(await within(subs).findByText("Pro")).toBeInTheDocument();
    expect(within(subs).getByText("INV-7")).toBeInTheDocument();
    expect(within(subs).getByText("Pending")).toBeInTheDocument();
    expect(within(subs).getByText("$19.99")).toBeInTheDocument();
    expect(within(subs).queryByText(/Page 1 of/)).toBeNull();
  });

  it("a payment refunded in part says how much went back", async () => {
    storeSession();
    mockAuthApi([
      on(
        routes.billing.paymentHistory,
        historyAnswer([
          transaction({ amount: 31.99, refundedAmount: 10 }),
          transaction({ _id: "t2", amount: 5, refundedAmount: 5, status: "refunded" }),
        ]),
      ),
      on(routes.billing.subscriptionPaymentHistory, historyAnswer([])),
      meRoute,
    ]);
    renderApp("/dashboard/transactions");
    const credits = await screen.findByTestId("credits-transactions");
    expect(await within(credits).findByText("Refunded $10.00 of $31.99")).toBeInTheDocument();
    expect(within(credits).getByText("Success")).toBeInTheDocument();
    // Refunded in whole: the status says it, no note.
    expect(within(credits).getByText("Refunded")).toBeInTheDocument();
    expect(within(credits).getAllByTestId("refunded-part")).toHaveLength(1);
  });

  it("shows the empty texts, and each tab's failure with a refresh", async () => {
    storeSession();
    let fail = true;
    mockAuthApi([
      on(routes.billing.paymentHistory, () =>
        fail
          ? jsonResponse({ success: false, message: "x" }, 500)
          : jsonResponse(historyAnswer([])),
      ),
      on(routes.billing.subscriptionPaymentHistory, () =>
        jsonResponse({ success: false, message: "x" }, 500),
      ),
      meRoute,
    ]);
    renderApp("/dashboard/transactions");
    expect(await screen.findByText("Failed to load credit transactions")).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText("No credit purchases yet.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("tab", { name: "Subscription Payments" }));
    expect(await screen.findByText("Failed to load subscription transactions")).toBeInTheDocument();
  });
});

describe("a failed Refresh", () => {
  it("keeps the rows and says the list may be out of date", async () => {
    storeSession();
    let fail = false;
    mockAuthApi([
      on(routes.billing.paymentHistory, () =>
        fail
          ? jsonResponse({ success: false, message: "x" }, 500)
          : jsonResponse(historyAnswer([transaction()])),
      ),
      on(routes.billing.subscriptionPaymentHistory, () => jsonResponse(historyAnswer([]))),
      meRoute,
    ]);
    renderApp("/dashboard/transactions");
    const credits = await screen.findByTestId("credits-transactions");
    expect(await within(credits).findByText("Starter")).toBeInTheDocument();
    fail = true;
    await userEvent.click(within(credits).getByRole("button", { name: "Refresh" }));
    expect(await within(credits).findByRole("alert")).toHaveTextContent(
      "Failed to load credit transactions. The list below may be out of date.",
    );
    expect(within(credits).getByText("Starter")).toBeInTheDocument();
  });
});

describe("/checkout/sandbox/:sessionId", () => {
  const id = "cs_test_1";

  it("shows what is bought and the amount, labelled as the test checkout; the test card pays", async () => {
    const { callsTo } = mockAuthApi([
      on(routes.billing.sandboxSession, { success: true, data: session() }),
      on(routes.billing.sandboxPay, {
        success: true,
        redirectUrl: "/dashboard/credits?checkout=success&session_id=cs_test_1",
        data: session({ status: "complete", paymentStatus: "paid", fulfilled: true }),
      }),
    ]);
    renderApp("/checkout/sandbox/cs_test_1");
    expect(await screen.findByRole("heading", { name: /Sandbox Checkout/ })).toBeInTheDocument();
    expect(screen.getByRole("note")).toHaveTextContent("Test checkout (sandbox)");
    expect(await screen.findByTestId("sandbox-summary")).toHaveTextContent("Starter");
    expect(screen.getByTestId("sandbox-amount")).toHaveTextContent("$9.00");
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Card number"), "4242 4242 4242 4242");
    await user.type(screen.getByLabelText("Expiry"), "12/34");
    await user.type(screen.getByLabelText("CVC"), "123");
    await user.click(screen.getByRole("button", { name: /Pay \$9\.00/ }));
    await waitFor(() =>
      expect(redirectTo.go).toHaveBeenCalledWith(
        "/dashboard/credits?checkout=success&session_id=cs_test_1",
      ),
    );
    expect(callsTo(routes.billing.sandboxPay, { id })[0]?.body).toEqual({
      cardNumber: "4242424242424242",
      expiry: "12/34",
      cvc: "123",
    });
  });

  it("shows the decline of the declined test card and stays on the page", async () => {
    mockAuthApi([
      on(routes.billing.sandboxSession, { success: true, data: session() }),
      on(routes.billing.sandboxPay, () =>
        jsonResponse({ success: false, message: "Your card was declined." }, 402),
      ),
    ]);
    renderApp("/checkout/sandbox/cs_test_1");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Card number"), "4000 0000 0000 0002");
    await user.type(screen.getByLabelText("Expiry"), "12/34");
    await user.type(screen.getByLabelText("CVC"), "123");
    await user.click(screen.getByRole("button", { name: /Pay/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Your card was declined.");
    expect(redirectTo.go).not.toHaveBeenCalled();
  });

  it("Cancel goes back to the cancel page", async () => {
    mockAuthApi([
      on(routes.billing.sandboxSession, { success: true, data: session() }),
      on(routes.billing.sandboxCancel, {
        success: true,
        redirectUrl: "/dashboard/credits?checkout=canceled&session_id=cs_test_1",
        data: session({ status: "canceled" }),
      }),
    ]);
    renderApp("/checkout/sandbox/cs_test_1");
    await userEvent.click(await screen.findByRole("link", { name: "Cancel and return" }));
    await waitFor(() =>
      expect(redirectTo.go).toHaveBeenCalledWith(
        "/dashboard/credits?checkout=canceled&session_id=cs_test_1",
      ),
    );
  });

  it("an unknown session shows the server's message; a paid one offers the way back", async () => {
    mockAuthApi([
      on(routes.billing.sandboxSession, () =>
        jsonResponse({ success: false, message: "Checkout session not found" }, 404),
      ),
    ]);
    renderApp("/checkout/sandbox/cs_test_1");
    expect(await screen.findByRole("alert")).toHaveTextContent("Checkout session not found");
  });
});

describe("chat's Subscribe", () => {
  it("opens the Subscription dialog on the chat screen", async () => {
    storeSession();
    mockAuthApi([
      on(routes.chat.messages, {
        success: true,
        data: { messages: [], pagination: { total: 0, page: 1, limit: 20, pages: 1 } },
      }),
      on(routes.chat.usage, {
        success: true,
        data: { total: 5, sentToday: 5, dailyLimit: 5, remaining: 0 },
      }),
      on(routes.chat.send, () =>
        jsonResponse(
          {
            success: false,
            message: "Daily free message limit reached",
            error: "Daily free message limit reached",
            dailyLimit: 5,
          },
          403,
        ),
      ),
      on(routes.billing.activePlans, { success: true, data: [plan()] }),
      on(routes.billing.mySubscription, subscriptionAnswer(noSubscription)),
      meRoute,
    ]);
    renderApp("/dashboard/chat");
    const user = userEvent.setup();
    await user.type(await screen.findByRole("textbox", { name: /^Message / }), "Hi{Enter}");
    const buttons = await screen.findAllByRole("button", { name: "Subscribe" });
    await user.click(buttons[0] as HTMLElement);
    const dialog = await screen.findByRole("dialog", { name: "Subscribe to a Plan" });
    expect(await within(dialog).findByRole("button", { name: /Basic/ })).toBeInTheDocument();
  });
});
