import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { CONTACT_MESSAGES, routes } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { mockApi, on, reply } from "@/test/api-mock";
import { testQueryClient } from "@/test/render";
import { ContactForm } from "./contact-form";

// The contact page's form over routes.mail.contact, answered by msw (issue 26 item 6).

function renderForm() {
  render(
    <QueryClientProvider client={testQueryClient()}>
      <ContactForm contactEmail="hello@example.com" />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText("Your name"), "Sam");
  await user.type(screen.getByLabelText("Your e-mail"), "sam@example.com");
  await user.type(screen.getByLabelText("Message"), "Hello there, a question about calls.");
  await user.click(screen.getByRole("button", { name: "Send message" }));
}

describe("contact form", () => {
  it("sends the message and says it was sent, the fields emptied", async () => {
    const api = mockApi([
      on(routes.mail.contact, { success: true as const, message: CONTACT_MESSAGES.sent }),
    ]);
    const user = renderForm();
    await fill(user);
    expect(await screen.findByText(CONTACT_MESSAGES.sent)).toBeInTheDocument();
    expect(screen.getByLabelText("Your name")).toHaveValue("");
    expect(api.callsTo(routes.mail.contact)[0]?.body).toEqual({
      name: "Sam",
      email: "sam@example.com",
      message: "Hello there, a question about calls.",
      website: "",
    });
  });

  it("shows the server's refusal (too many messages) and keeps what was typed", async () => {
    mockApi([
      on(routes.mail.contact, () =>
        reply({ success: false, message: "Too many attempts. Try again in 60 seconds." }, 429),
      ),
    ]);
    const user = renderForm();
    await fill(user);
    expect(await screen.findByText(/Too many attempts/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("Your name")).toHaveValue("Sam"));
  });
});
