import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Memory } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { makeUser, mockAuthApi, storeSession } from "@/test/auth";
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
    const changed = { success: true, message: "Memory deleted" };
    const { callsTo } = mockAuthApi({
      "GET /api/auth/me": { success: true, data: makeUser() },
      "GET /api/memory": () => Response.json({ success: true, data: memory }),
      "DELETE /api/memory/facts/f1": () => {
        memory = { ...memory, facts: memory.facts.filter((fact) => fact._id !== "f1") };
        return Response.json(changed);
      },
      "DELETE /api/memory/summary": () => {
        memory = { ...memory, summary: null };
        return Response.json(changed);
      },
      "PATCH /api/memory": (call) => {
        memory = { ...memory, enabled: (call.body as { enabled: boolean }).enabled };
        return Response.json({ success: true, message: "Memory settings updated" });
      },
    });
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
    expect(callsTo("DELETE /api/memory/facts/f1")).toHaveLength(1);

    await user.click(within(section).getByRole("button", { name: "Delete the summary" }));
    expect(await within(section).findByText("No summary yet.")).toBeInTheDocument();

    const toggle = within(section).getByRole("switch");
    expect(toggle).toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(within(section).getByRole("switch")).not.toBeChecked());
    expect(callsTo("PATCH /api/memory")[0]?.body).toEqual({ enabled: false });
  });
});
