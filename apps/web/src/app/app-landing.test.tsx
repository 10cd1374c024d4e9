import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { defaultPublicSettings } from "@twinline/contracts";
import { afterEach, describe, expect, it } from "vitest";
import { mockApi } from "@/test/render";
import { App } from "./app";

// The landing page renders without the router (decision 0033); the first navigation loads it.

afterEach(() => {
  window.history.replaceState(null, "", "/");
});

describe("the app at /", () => {
  it("shows the landing page, and a link to another page hands over to the router", async () => {
    mockApi(defaultPublicSettings);
    window.history.replaceState(null, "", "/");
    render(<App />);
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("AI Celebrity Assistant");

    await userEvent.click(screen.getByRole("link", { name: "Create your free account" }));
    expect(await screen.findByTestId("auth-page")).toBeInTheDocument();
    expect(window.location.pathname).toBe("/auth");
    expect(window.location.search).toBe("?tab=signup");

    // Back to the landing page, now under the router.
    window.history.back();
    expect(await screen.findAllByTestId("feature-card")).toHaveLength(6);
    expect(screen.queryByTestId("auth-page")).not.toBeInTheDocument();
  });

  it("loads the router at once for any other address", async () => {
    mockApi(defaultPublicSettings);
    window.history.replaceState(null, "", "/no/such/page");
    render(<App />);
    expect(await screen.findByText(/not found/i)).toBeInTheDocument();
  });
});
