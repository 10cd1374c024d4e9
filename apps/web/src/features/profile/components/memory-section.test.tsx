import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { defaultPublicSettings, type Memory, routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { mockApi, on } from "@/test/api-mock";
import { makeUser, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";

afterEach(() => {
  toast.remove();
});

describe("/dashboard/profile: what the persona remembers", () => {
  it("shows the summary and facts, forgets one, deletes the summary, turns memory off", async () => {
    storeSession();
    let memory: Memory = {
      enabled: true,
      summary: { content: "Sam sails and has a cat named Pixel.", updatedAt: null },
      facts: [
        {
          _id: "f1",
          content: "My cat is named Pixel.",
          timestamp: "2026-11-20T10:00:00.000Z",
          callId: null,
        },
        {
          _id: "f2",
          content: "I love sailing.",
          timestamp: "2026-11-21T10:00:00.000Z",
          callId: "c1",
        },
      ],
    };
    const changed = { success: true as const, message: "Memory deleted" };
    const api = mockApi(
      [
        on(routes.auth.me, { success: true, data: makeUser() }),
        on(routes.auth.config, { googleClientId: null }),
        on(routes.memory.view, () => ({ success: true as const, data: memory })),
        on(routes.memory.forgetFact, ({ params }) => {
          memory = { ...memory, facts: memory.facts.filter((fact) => fact._id !== params.id) };
          return changed;
        }),
        on(routes.memory.deleteSummary, () => {
          memory = { ...memory, summary: null };
          return changed;
        }),
        on(routes.memory.setEnabled, ({ body }) => {
          memory = { ...memory, enabled: (body as { enabled: boolean }).enabled };
          return { success: true as const, message: "Memory settings updated" };
        }),
      ],
      { settings: defaultPublicSettings },
    );
    renderApp("/dashboard/profile");
    const user = userEvent.setup();
    const section = await screen.findByTestId("memory-section");
    expect(screen.getByRole("heading", { name: /^What .+ remembers$/ })).toBeInTheDocument();
    expect(within(section).getByText("Sam sails and has a cat named Pixel.")).toBeInTheDocument();
    expect(within(section).getByText(/On a call/)).toBeInTheDocument();

    await user.click(
      within(section).getByRole("button", { name: "Forget: My cat is named Pixel." }),
    );
    await waitFor(() =>
      expect(within(section).queryByText("My cat is named Pixel.")).not.toBeInTheDocument(),
    );
    expect(api.callsTo(routes.memory.forgetFact, { id: "f1" })).toHaveLength(1);

    await user.click(within(section).getByRole("button", { name: "Delete the summary" }));
    expect(await within(section).findByText("No summary yet.")).toBeInTheDocument();

    const toggle = within(section).getByRole("switch");
    expect(toggle).toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(within(section).getByRole("switch")).not.toBeChecked());
    expect(api.callsTo(routes.memory.setEnabled)[0]?.body).toEqual({ enabled: false });
  });
});
