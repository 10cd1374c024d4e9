import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Spinner } from "./spinner";

afterEach(() => {
  vi.useRealTimers();
});

describe("Spinner", () => {
  it("appears only after 100 ms, so quick loads never flash", () => {
    vi.useFakeTimers();
    render(<Spinner label="Loading settings" />);
    act(() => {
      vi.advanceTimersByTime(99);
    });
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole("status")).toHaveTextContent("Loading settings");
  });
});
