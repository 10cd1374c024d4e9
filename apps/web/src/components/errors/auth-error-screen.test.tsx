import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AuthErrorScreen } from "./auth-error-screen";

describe("AuthErrorScreen", () => {
  it("tells the user authentication failed and to refresh", () => {
    render(<AuthErrorScreen />);
    expect(screen.getByRole("heading", { name: "Authentication Error" })).toBeInTheDocument();
    expect(screen.getByText("Please refresh the page.")).toBeInTheDocument();
  });
});
