import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { EmailText } from "./person-cells";

describe("EmailText", () => {
  it("offers line breaks only after the @ and before each dot, and reads as the whole address", () => {
    const email = "ada.lovelace-byron@example-university.test";
    const { container } = render(
      <p>
        <EmailText email={email} />
      </p>,
    );
    expect(container.querySelector("p")?.innerHTML).toBe(
      "ada<wbr>.lovelace-byron@<wbr>example-university<wbr>.test",
    );
    expect(screen.getByText(email)).toBeInTheDocument();
  });
});
