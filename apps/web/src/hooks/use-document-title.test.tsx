import { renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { useDocumentTitle } from "./use-document-title";

describe("useDocumentTitle", () => {
  beforeEach(() => {
    document.title = "Before";
  });

  it("sets the title exactly as given", () => {
    renderHook(() => useDocumentTitle("Chat · Twinline"));
    expect(document.title).toBe("Chat · Twinline");
  });

  it("follows the title when it changes", () => {
    const { rerender } = renderHook(({ title }) => useDocumentTitle(title), {
      initialProps: { title: "Login · Twinline" },
    });
    expect(document.title).toBe("Login · Twinline");
    rerender({ title: "Sign Up · Twinline" });
    expect(document.title).toBe("Sign Up · Twinline");
  });

  it("does not set it again on a re-render with the same title", () => {
    const { rerender } = renderHook(({ title }) => useDocumentTitle(title), {
      initialProps: { title: "Users · Twinline Admin" },
    });
    document.title = "Changed elsewhere";
    rerender({ title: "Users · Twinline Admin" });
    expect(document.title).toBe("Changed elsewhere");
  });

  it("leaves the title in place on unmount", () => {
    const { unmount } = renderHook(() => useDocumentTitle("Call History · Twinline"));
    unmount();
    expect(document.title).toBe("Call History · Twinline");
  });
});
