import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { CreditPackage, SubscriptionPlan } from "@twinline/contracts";
import { BILLING_MESSAGES, routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockAdminApi, signInAdmin } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

configure({ asyncUtilTimeout: 5000 });
// The first render loads a lazy bundle; a busy shared machine needs more than the default 5 s.
vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  toast.remove();
});

const stamp = "2025-01-01T00:00:00.000Z";
function plan(patch: Partial<SubscriptionPlan> = {}): SubscriptionPlan {
  return {
    _id: "3f2a9c1e-aaaa-4bbb-8ccc-000000000001",
    name: "Gold",
    description: "Everything",
    price: 19.99,
    currency: "usd",
    interval: "month",
    intervalCount: 1,
    features: ["Unlimited messages"],
    isActive: true,
    credits: 0,
    trialDays: 0,
    stripeProductId: "prod_ABCDEFGHIJKLMN",
    stripePriceId: null,
    subscriberCount: 0,
    createdAt: stamp,
    updatedAt: stamp,
    ...patch,
  };
}
function pkg(patch: Partial<CreditPackage> = {}): CreditPackage {
  return {
    _id: "p1",
    name: "Starter",
    description: "For a first call",
    credits: 100,
    price: 10,
    currency: "usd",
    discount: 0,
    discountedPrice: 10,
    isActive: true,
    stripeProductId: null,
    stripePriceId: null,
    createdAt: stamp,
    updatedAt: stamp,
    ...patch,
  };
}
const packagesAnswer = (list: CreditPackage[]) =>
  jsonResponse({ success: true, data: list, packages: list });

describe("/admin/subscriptions", () => {
  it("shows the plans as cards with ids truncated to 10 characters", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminBilling.plans, () =>
        jsonResponse({
          success: true,
          data: [
            plan({ subscriberCount: 1_204 }),
            plan({ _id: "p2", name: "Silver", isActive: false }),
          ],
        }),
      ),
    ]);
    renderApp("/admin/subscriptions");
    const cards = await screen.findAllByTestId("plan-card");
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent("Gold");
    expect(cards[0]).toHaveTextContent("$19.99");
    expect(cards[0]).toHaveTextContent("3f2a9c1e-a…");
    expect(cards[0]).toHaveTextContent("prod_ABCDE…");
    expect(cards[0]).toHaveTextContent("Not synced");
    expect(cards[0]).toHaveTextContent("1,204 active subscribers");
    expect(cards[1]).toHaveTextContent("Inactive");
    expect(cards[1]).toHaveTextContent("0 active subscribers");
    // The admin token goes with the plan list although its URL has no /admin.
    expect(api.callsTo(routes.adminBilling.plans)[0]?.headers.get("Authorization")).toBe(
      "Bearer admin-token",
    );
  });

  it("says Failed to load subscription plans, and shows the empty state", async () => {
    signInAdmin();
    let fail = true;
    mockAdminApi([
      on(routes.adminBilling.plans, () =>
        fail
          ? jsonResponse({ success: false, message: "x" }, 500)
          : jsonResponse({ success: true, data: [] }),
      ),
    ]);
    renderApp("/admin/subscriptions");
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load subscription plans");
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("No Subscription Plans Found")).toBeInTheDocument();
  });

  it("adds a plan with the spec's defaults and checks the name", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminBilling.plans, () => jsonResponse({ success: true, data: [] })),
      on(routes.adminBilling.createPlan, () =>
        jsonResponse({
          success: true,
          message: "Subscription plan created successfully",
          data: plan(),
        }),
      ),
    ]);
    renderApp("/admin/subscriptions");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add New Plan" }));
    const dialog = await screen.findByRole("dialog", { name: "Add New Plan" });
    expect(within(dialog).getByLabelText("Price")).toHaveValue(0);
    expect(within(dialog).getByLabelText("Interval")).toHaveValue("month");
    expect(within(dialog).getByLabelText("Interval count")).toHaveValue(1);
    expect(within(dialog).getByLabelText("Active")).toBeChecked();
    expect(within(dialog).getByLabelText("Free trial days")).toHaveValue(0);
    // More than 90 days is refused by the contract's bound, naming the field.
    await user.clear(within(dialog).getByLabelText("Free trial days"));
    await user.type(within(dialog).getByLabelText("Free trial days"), "91");
    await user.click(within(dialog).getByRole("button", { name: "Create Plan" }));
    expect(await within(dialog).findByText("Trial days must be at most 90")).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText("Free trial days"));
    await user.type(within(dialog).getByLabelText("Free trial days"), "14");
    expect(await within(dialog).findByText("Plan name is required")).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Plan name"), "Gold");
    await user.clear(within(dialog).getByLabelText("Price"));
    await user.type(within(dialog).getByLabelText("Price"), "19.99");
    await user.type(within(dialog).getByLabelText("Features"), "Unlimited messages\nPriority");
    await user.click(within(dialog).getByRole("button", { name: "Create Plan" }));
    expect(await screen.findByText("Subscription plan created successfully")).toBeInTheDocument();
    expect(api.callsTo(routes.adminBilling.createPlan)[0]?.body).toMatchObject({
      name: "Gold",
      price: 19.99,
      currency: "usd",
      interval: "month",
      intervalCount: 1,
      features: ["Unlimited messages", "Priority"],
      isActive: true,
      trialDays: 14,
    });
  });

  it("edits with interval and count read-only, and prefers the server's failure message", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminBilling.plans, () => jsonResponse({ success: true, data: [plan()] })),
      on(routes.adminBilling.updatePlan, () =>
        jsonResponse({ success: false, message: "Price must be at most 999999.99" }, 400),
      ),
    ]);
    renderApp("/admin/subscriptions");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Edit Gold" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Subscription Plan" });
    expect(within(dialog).getByLabelText("Interval")).toHaveAttribute("readonly");
    expect(within(dialog).getByLabelText("Interval count")).toHaveAttribute("readonly");
    await user.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("Price must be at most 999999.99")).toBeInTheDocument();
    const body = api.callsTo(routes.adminBilling.updatePlan, { id: plan()._id })[0]?.body as object;
    expect(body).not.toHaveProperty("interval");
    expect(body).not.toHaveProperty("intervalCount");
  });

  it("deletes only after the plan name is typed exactly", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminBilling.plans, () => jsonResponse({ success: true, data: [plan()] })),
      on(routes.adminBilling.deletePlan, () =>
        jsonResponse({ success: true, message: "Subscription plan deleted successfully" }),
      ),
    ]);
    renderApp("/admin/subscriptions");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Delete Gold" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete Subscription Plan" });
    const remove = within(dialog).getByRole("button", { name: "Delete" });
    expect(remove).toBeDisabled();
    await user.type(within(dialog).getByRole("textbox"), "gold");
    expect(remove).toBeDisabled();
    expect(within(dialog).getByText("Plan name does not match")).toBeInTheDocument();
    await user.clear(within(dialog).getByRole("textbox"));
    await user.type(within(dialog).getByRole("textbox"), "Gold");
    await user.click(remove);
    expect(await screen.findByText("Subscription plan deleted successfully")).toBeInTheDocument();
    expect(api.callsTo(routes.adminBilling.deletePlan, { id: plan()._id })).toHaveLength(1);
  });

  it("warns, with the count, before deleting a plan people are subscribed to", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminBilling.plans, () =>
        jsonResponse({ success: true, data: [plan({ subscriberCount: 3 })] }),
      ),
    ]);
    renderApp("/admin/subscriptions");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Delete Gold" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete Subscription Plan" });
    expect(dialog).toHaveTextContent(
      "This plan has 3 active subscribers: they keep their subscription and price until they cancel",
    );
  });

  it("says Stripe is not configured when Sync runs without a key", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminBilling.plans, () => jsonResponse({ success: true, data: [plan()] })),
      on(routes.adminBilling.syncPlans, () =>
        jsonResponse({
          success: true,
          message: BILLING_MESSAGES.stripeNotConfigured,
          mode: "sandbox",
          created: 0,
          updated: 0,
          deactivated: 0,
        }),
      ),
    ]);
    renderApp("/admin/subscriptions");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Sync with Stripe" }));
    expect(await screen.findByText(BILLING_MESSAGES.stripeNotConfigured)).toBeInTheDocument();
    expect(screen.queryByText("Plans synced with Stripe")).not.toBeInTheDocument();
  });

  it("syncs with Stripe, toggles a plan, and toasts their failures", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminBilling.plans, () => jsonResponse({ success: true, data: [plan()] })),
      on(routes.adminBilling.syncPlans, () => jsonResponse({ success: false, message: "x" }, 500)),
      on(routes.adminBilling.togglePlan, () => jsonResponse({ success: false, message: "x" }, 500)),
    ]);
    renderApp("/admin/subscriptions");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Sync with Stripe" }));
    expect(await screen.findByText("Failed to sync plans with Stripe")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Deactivate Gold" }));
    expect(await screen.findByText("Failed to update plan status")).toBeInTheDocument();
  });
});

describe("/admin/ManageCredits", () => {
  it("shows the table; sorts by Credits and by discounted Price", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.billing.packages, () =>
        packagesAnswer([
          pkg({
            _id: "a",
            name: "Alpha",
            credits: 500,
            price: 50,
            discount: 50,
            discountedPrice: 25,
          }),
          pkg({
            _id: "b",
            name: "Beta",
            credits: 100,
            price: 30,
            stripeProductId: "prod_1",
            stripePriceId: "price_1",
          }),
          pkg({ _id: "c", name: "Gamma", credits: 300, price: 20, isActive: false }),
        ]),
      ),
    ]);
    renderApp("/admin/ManageCredits");
    const names = () =>
      screen
        .getAllByTestId("package-row")
        .map((row) => within(row).getAllByRole("cell")[1]?.textContent);
    await screen.findAllByTestId("package-row");
    const alpha = screen.getAllByTestId("package-row")[0] as HTMLElement;
    expect(alpha).toHaveTextContent("$50.00");
    expect(within(alpha).getByText("$50.00").tagName).toBe("S");
    expect(alpha).toHaveTextContent("$25.00");
    expect(alpha).toHaveTextContent("50% off");
    expect(alpha).toHaveTextContent("Not synced");
    expect(screen.getAllByTestId("package-row")[1]).toHaveTextContent("prod_1");
    expect(screen.getAllByTestId("package-row")[2]).toHaveTextContent("Inactive");
    // The open list is asked with the admin's token: only an admin's sees inactive packages.
    expect(api.callsTo(routes.billing.packages)[0]?.headers.get("Authorization")).toBe(
      "Bearer admin-token",
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: /Credits/ }));
    expect(names().map((n) => n?.slice(0, 4))).toEqual(["Beta", "Gamm", "Alph"]);
    await user.click(screen.getByRole("button", { name: /Credits/ }));
    expect(names().map((n) => n?.slice(0, 4))).toEqual(["Alph", "Gamm", "Beta"]);
    await user.click(screen.getByRole("button", { name: /Price/ }));
    // Discounted: Gamma 20, Alpha 25, Beta 30.
    expect(names().map((n) => n?.slice(0, 4))).toEqual(["Gamm", "Alph", "Beta"]);
  });

  it("with no packages shows No Credit Packages Found with Sync and Create Package", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.billing.packages, () => packagesAnswer([])),
      on(routes.adminBilling.syncPackages, () =>
        jsonResponse({
          success: true,
          message: "Credit Plan Sync Completed",
          mode: "sandbox",
          created: 0,
          updated: 0,
          deactivated: 0,
        }),
      ),
    ]);
    renderApp("/admin/ManageCredits");
    expect(await screen.findByText("No Credit Packages Found")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Create Package" })).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole("button", { name: "Sync" })[1] as HTMLElement);
    expect(await screen.findByText("Credit Plan Sync Completed")).toBeInTheDocument();
  });

  it("says Failed to load credit packages", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.billing.packages, () => jsonResponse({ success: false, message: "x" }, 500)),
    ]);
    renderApp("/admin/ManageCredits");
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load credit packages");
  });

  it("adds a package with the defaults, the checks and the discount preview", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.billing.packages, () => packagesAnswer([])),
      on(routes.adminBilling.createPackage, () =>
        jsonResponse({
          success: true,
          message: "Credit package created successfully",
          data: pkg(),
        }),
      ),
    ]);
    renderApp("/admin/ManageCredits");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add Package" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Credit Package" });
    expect(within(dialog).getByLabelText("Credits")).toHaveValue(100);
    expect(within(dialog).getByLabelText("Price")).toHaveValue(9.99);
    expect(within(dialog).getByLabelText("Discount (%)")).toHaveValue(0);
    expect(within(dialog).queryByTestId("discount-preview")).toBeNull();
    await user.clear(within(dialog).getByLabelText("Credits"));
    await user.type(within(dialog).getByLabelText("Credits"), "0");
    await user.click(within(dialog).getByRole("button", { name: "Create Package" }));
    expect(await within(dialog).findByText("Package name is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Credits must be greater than zero")).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Package name"), "Mega");
    await user.clear(within(dialog).getByLabelText("Credits"));
    await user.type(within(dialog).getByLabelText("Credits"), "1000");
    await user.clear(within(dialog).getByLabelText("Price"));
    await user.type(within(dialog).getByLabelText("Price"), "40");
    await user.clear(within(dialog).getByLabelText("Discount (%)"));
    await user.type(within(dialog).getByLabelText("Discount (%)"), "25");
    const preview = within(dialog).getByTestId("discount-preview");
    expect(preview).toHaveTextContent("Original$40.00");
    expect(preview).toHaveTextContent("Discounted$30.00");
    expect(preview).toHaveTextContent("Savings$10.00");
    await user.click(within(dialog).getByRole("button", { name: "Create Package" }));
    expect(await screen.findByText("Credit package created successfully")).toBeInTheDocument();
    expect(api.callsTo(routes.adminBilling.createPackage)[0]?.body).toMatchObject({
      name: "Mega",
      credits: 1000,
      price: 40,
      currency: "usd",
      discount: 25,
      isActive: true,
    });
  });

  it("edits in Edit Credit Package (product id read-only) and shows the server's failure", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.billing.packages, () => packagesAnswer([pkg()])),
      on(routes.adminBilling.updatePackage, () =>
        jsonResponse({ success: false, message: "Package not found" }, 404),
      ),
    ]);
    renderApp("/admin/ManageCredits");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Edit Starter" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Credit Package" });
    expect(within(dialog).getByLabelText("Stripe product ID")).toHaveValue(
      "Not synced with Stripe",
    );
    expect(within(dialog).getByLabelText("Stripe product ID")).toHaveAttribute("readonly");
    await user.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("Package not found")).toBeInTheDocument();
  });

  it("deletes in Delete Credit Package after the exact name; toggles the row at once", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.billing.packages, () => packagesAnswer([pkg()])),
      on(routes.adminBilling.deletePackage, () =>
        jsonResponse({ success: true, message: "Credit package deleted successfully" }),
      ),
      on(routes.adminBilling.togglePackage, () =>
        jsonResponse({
          success: true,
          message: "Package deactivated successfully",
          data: pkg({ isActive: false }),
        }),
      ),
    ]);
    renderApp("/admin/ManageCredits");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Deactivate Starter" }));
    expect(await screen.findByText("Package deactivated successfully")).toBeInTheDocument();
    expect(screen.getByTestId("package-row")).toHaveTextContent("Inactive");
    await user.click(screen.getByRole("button", { name: "Delete Starter" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete Credit Package" });
    await user.type(within(dialog).getByRole("textbox"), "Start");
    expect(within(dialog).getByText("Package name does not match")).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Delete" })).toBeDisabled();
    await user.type(within(dialog).getByRole("textbox"), "er");
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Credit package deleted successfully")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
