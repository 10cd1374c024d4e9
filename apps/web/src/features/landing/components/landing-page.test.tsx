import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { defaultPublicSettings, type PublicSettings } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { mockApi, renderApp } from "@/test/render";

function settingsWith(patch: {
  aiProfile?: Partial<PublicSettings["aiProfile"]>;
  socialMediaProfiles?: Partial<PublicSettings["socialMediaProfiles"]>;
}): PublicSettings {
  return {
    ...defaultPublicSettings,
    aiProfile: { ...defaultPublicSettings.aiProfile, ...patch.aiProfile },
    socialMediaProfiles: {
      ...defaultPublicSettings.socialMediaProfiles,
      ...patch.socialMediaProfiles,
    },
  };
}

describe("landing page", () => {
  it("shows the persona's name and promotional message from settings", async () => {
    mockApi(
      settingsWith({
        aiProfile: { name: "Nova Star", promotionalMessage: "Late-night talks, any time." },
      }),
    );
    renderApp("/");
    expect(await screen.findByRole("heading", { level: 1, name: /Nova Star/ })).toBeInTheDocument();
    expect(screen.getByTestId("promotional-message")).toHaveTextContent(
      "Late-night talks, any time.",
    );
    // The preview conversation speaks with the persona's name.
    expect(
      within(screen.getByTestId("preview-conversation")).getAllByText("Nova Star").length,
    ).toBeGreaterThan(0);
  });

  it("has a fixed header with the theme toggle, Login and Sign Up", async () => {
    mockApi(defaultPublicSettings);
    renderApp("/");
    const header = screen.getByRole("banner");
    expect(header).toHaveClass("fixed");
    expect(within(header).getByTestId("theme-toggle")).toBeInTheDocument();
    expect(within(header).getByRole("button", { name: "Login" })).toBeInTheDocument();
    expect(within(header).getByRole("button", { name: "Sign Up" })).toBeInTheDocument();
  });

  it("shows six features, three five-star testimonials and the footer statement", async () => {
    mockApi(defaultPublicSettings);
    renderApp("/");
    expect(screen.getAllByTestId("feature-card")).toHaveLength(6);
    const testimonials = screen.getAllByTestId("testimonial");
    expect(testimonials).toHaveLength(3);
    for (const testimonial of testimonials) {
      expect(within(testimonial).getAllByTestId("star")).toHaveLength(5);
      expect(
        within(testimonial).getByRole("img", { name: "5 out of 5 stars" }),
      ).toBeInTheDocument();
    }
    const statement = screen.getByTestId("footer-statement");
    expect(statement).toHaveTextContent(/AI experience/);
    expect(statement).toHaveTextContent(/All characters are fictional/);
    expect(statement).toHaveTextContent(/18 or older/);
    expect(screen.getByRole("contentinfo")).toHaveTextContent("© 2025");
  });

  it("has the Legal, Company and Connect lists", async () => {
    mockApi(defaultPublicSettings);
    renderApp("/");
    const legal = screen.getByRole("navigation", { name: "Legal" });
    for (const name of ["Terms of Service", "Privacy Policy", "Refund Policy", "Safety"]) {
      expect(within(legal).getByRole("link", { name })).toBeInTheDocument();
    }
    const company = screen.getByRole("navigation", { name: "Company" });
    for (const name of ["About Us", "Contact", "FAQ"]) {
      expect(within(company).getByRole("link", { name })).toBeInTheDocument();
    }
    expect(screen.getByRole("navigation", { name: "Connect" })).toBeInTheDocument();
  });

  it("links only the social networks set in settings, in a new tab", async () => {
    mockApi(
      settingsWith({
        socialMediaProfiles: {
          instagram: "https://instagram.com/nova",
          tiktok: "tiktok.com/@nova",
          twitter: "javascript:alert(1)",
        },
      }),
    );
    renderApp("/");
    const instagram = await screen.findByRole("link", { name: "Instagram" });
    expect(instagram).toHaveAttribute("href", "https://instagram.com/nova");
    expect(instagram).toHaveAttribute("target", "_blank");
    expect(instagram).toHaveAttribute("rel", "noopener noreferrer");
    expect(screen.getByRole("link", { name: "TikTok" })).toHaveAttribute(
      "href",
      "https://tiktok.com/@nova",
    );
    for (const name of ["Twitter", "YouTube", "Facebook", "Snapchat", "OnlyFans"]) {
      expect(screen.queryByRole("link", { name })).not.toBeInTheDocument();
    }
  });

  it("shows no social links when none are set", async () => {
    mockApi(defaultPublicSettings);
    renderApp("/");
    await waitFor(() =>
      expect(screen.queryByRole("list", { name: "Social media" })).not.toBeInTheDocument(),
    );
  });

  it("shows the persona image through the API host, and a placeholder when it fails", async () => {
    mockApi(
      settingsWith({ aiProfile: { name: "Nova Star", aiProfileImage: "/uploads/nova.png" } }),
    );
    renderApp("/");
    const image = (await screen.findAllByRole("img", { name: "Nova Star" })).find(
      (el) => el.tagName === "IMG",
    );
    expect(image).toHaveAttribute("src", "/uploads/nova.png");
    if (image) fireEvent.error(image);
    await waitFor(() => {
      const hero = screen.getByRole("region", { name: /Say hi to/ });
      expect(within(hero).getByTestId("persona-placeholder")).toHaveTextContent("NS");
    });
  });

  it("shows an initials placeholder when there is no persona image", async () => {
    mockApi(defaultPublicSettings);
    renderApp("/");
    expect(screen.getAllByTestId("persona-placeholder")[0]).toHaveTextContent("AA");
  });

  it("has a skip link to the main content", async () => {
    mockApi(defaultPublicSettings);
    renderApp("/");
    const skip = screen.getByRole("link", { name: "Skip to main content" });
    expect(skip).toHaveAttribute("href", "#main");
    expect(document.getElementById("main")).toBeInTheDocument();
  });

  it("offers the anonymous trial chat, loaded on the first click; none at an allowance of 0", async () => {
    mockApi({ ...defaultPublicSettings, anonymousMessages: 3 });
    const { unmount } = renderApp("/");
    const start = await screen.findByTestId("trial-start");
    expect(screen.queryByTestId("trial-chat")).not.toBeInTheDocument();
    fireEvent.click(start);
    // The chat comes (its own bundle) and asks GET /api/trial, answered 404 by the mock here.
    expect(await screen.findByTestId("trial-chat")).toBeInTheDocument();
    expect(await screen.findByRole("alert")).toHaveTextContent("could not be loaded");
    unmount();

    mockApi({ ...defaultPublicSettings, anonymousMessages: 0 });
    renderApp("/");
    await screen.findByTestId("preview-conversation");
    await waitFor(() => expect(screen.queryByTestId("trial-start")).not.toBeInTheDocument());
  });
});
