import { configure, screen, within } from "@testing-library/react";
import { type AuditEntry, routes } from "@twinline/contracts";
import { describe, expect, it, vi } from "vitest";
import { mockAdminApi, signInAdmin } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

configure({ asyncUtilTimeout: 5000 });
// The first render loads a lazy bundle; a busy shared machine needs more than the default 5 s.
vi.setConfig({ testTimeout: 20_000 });

function entry(patch: Partial<AuditEntry>): AuditEntry {
  return {
    _id: "e1",
    admin: { _id: "a1", email: "admin@example.com" },
    action: "settings.update",
    targetType: "settings",
    targetId: null,
    targetLabel: null,
    before: null,
    after: null,
    ip: "203.0.113.9",
    method: "PUT",
    path: routes.settings.save.path,
    createdAt: "2025-02-03T10:00:00.000Z",
    ...patch,
  };
}

const rows: AuditEntry[] = [
  entry({
    _id: "e1",
    before: { defaultCredits: 100, siteName: "Twin", apiKeys: { openai: "••••abcd" } },
    after: { defaultCredits: 77, siteName: "Twin", apiKeys: { openai: "••••cdef" } },
  }),
  entry({
    _id: "e2",
    action: "subscription.cancel",
    targetType: "subscription",
    targetId: "5b0c2f1e-0000-4000-8000-000000000002",
    targetLabel: "Gold · jade@example.com",
    before: { reason: "Asked by mail" },
    after: { subscription: { status: "canceled" } },
  }),
  entry({ _id: "e3", action: "page.update", targetType: "page", targetId: "faq" }),
];

describe("the audit log screen", () => {
  it("names each target by its label and lists only what changed, field by field", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.audit.list, () =>
        jsonResponse({
          success: true,
          data: rows,
          pagination: { total: 3, page: 1, limit: 20, pages: 1 },
        }),
      ),
    ]);
    renderApp("/admin/audit-log");
    const [settings, subscription, page] = await screen.findAllByTestId(
      "audit-row",
      {},
      { timeout: 15_000 },
    );
    if (!settings || !subscription || !page) throw new Error("three rows expected");

    const settingsChanges = within(settings).getByTestId("audit-changes");
    expect(
      within(settingsChanges)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["defaultCredits: 100 → 77", "apiKeys.openai: ••••abcd → ••••cdef"]);
    expect(within(subscription).getByTestId("audit-target-label").textContent).toBe(
      "Gold · jade@example.com",
    );
    expect(within(subscription).getByText("Subscriptions")).toBeTruthy();
    // A note the route fed (the reason) reads as it was; what only the answer has is left out.
    expect(
      within(subscription)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["reason: Asked by mail"]);
    // No label (a slug is its own name): the id shows in full.
    expect(within(page).queryByTestId("audit-target-label")).toBeNull();
    expect(within(page).getByText("faq")).toBeTruthy();
    expect(within(page).getByText("Site pages")).toBeTruthy();
  });
});
