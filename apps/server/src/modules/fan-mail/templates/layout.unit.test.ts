import { describe, expect, it } from "vitest";
import { createUnsubscribeTokens } from "../unsubscribe-token.ts";
import { escapeHtml, formatMailDate, renderMail } from "./layout.ts";
import { messageFor } from "./messages.ts";

describe("mail layout", () => {
  const brand = { siteName: "A&B <Fans>", logoUrl: "javascript:alert(1)" };

  it("escapes every value in the HTML and keeps the text as written", () => {
    const mail = renderMail(
      {
        subject: "Hi <you>",
        heading: '"quoted" & <b>bold</b>',
        paragraphs: ["<script>alert(1)</script>"],
        details: [["<td>", "</table>"]],
        action: { label: "Go", url: "javascript:alert(1)" },
      },
      brand,
      null,
    );
    expect(mail.html).not.toMatch(/<script>|<b>bold|<td>&|javascript:/);
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail.html).toContain("A&amp;B &lt;Fans&gt;");
    expect(mail.text).toContain("<script>alert(1)</script>");
    expect(mail.text).toContain("<td>: </table>");
    expect(escapeHtml(`'"<>&`)).toBe("&#39;&quot;&lt;&gt;&amp;");
  });

  it("dates in one format, in UTC", () => {
    expect(formatMailDate("2026-11-26T23:30:00Z")).toBe("26 November 2026");
    expect(formatMailDate(new Date("2027-01-01T00:00:00Z"))).toBe("1 January 2027");
  });

  it("a receipt says what, amount, currency, date, transaction id and how to cancel", () => {
    const content = messageFor(
      "receipt",
      {
        item: "Fan Club",
        purchase: "subscription",
        credits: 50,
        amountMinor: 999,
        currency: "eur",
        paidAt: "2026-11-26T10:00:00Z",
        transactionId: "pi_123",
        periodEnd: "2026-12-26T10:00:00Z",
      },
      { name: "Ada", siteName: "Nova", publicUrl: "https://nova.example" },
    );
    expect(content.details).toEqual([
      ["Item", "Fan Club"],
      ["Credits added", "50"],
      ["Amount", "€9.99"],
      ["Currency", "EUR"],
      ["Date", "26 November 2026"],
      ["Transaction ID", "pi_123"],
      ["Paid until", "26 December 2026"],
    ]);
    expect(content.notes?.join(" ")).toContain("cancel at any time");
    expect(content.action?.url).toBe("https://nova.example/dashboard/transactions");
  });
});

describe("the withdrawal confirmation", () => {
  it("says what was withdrawn, the refund, the credits removed, the date and time, and the id", () => {
    const content = messageFor(
      "withdrawal_confirmation",
      {
        item: "Gold Pack",
        amountMinor: 2450,
        currency: "gbp",
        withdrawnAt: "2026-11-26T10:00:00Z",
        transactionId: "re_42",
        creditsRemoved: 300,
      },
      { name: "Ada", siteName: "Nova", publicUrl: "https://nova.example" },
    );
    expect(content.subject).toBe("Your withdrawal from Gold Pack is confirmed");
    expect(content.details).toEqual([
      ["Item", "Gold Pack"],
      ["Refund", "£24.50"],
      ["Credits removed", "300"],
      ["Date and time", "26 November 2026, 10:00 UTC"],
      ["Transaction ID", "re_42"],
    ]);
  });
});

describe("unsubscribe tokens", () => {
  const tokens = createUnsubscribeTokens("secret-one");
  const userId = "6f1c2b3a-1111-4222-8333-944455566677";

  it("verifies its own tokens only", () => {
    const token = tokens.sign(userId);
    expect(tokens.verify(token)).toBe(userId);
    expect(createUnsubscribeTokens("secret-two").verify(token)).toBeNull();
    expect(tokens.verify(`${userId}.${"A".repeat(43)}`)).toBeNull();
    expect(tokens.verify(`not-a-uuid.${token.split(".")[1]}`)).toBeNull();
    expect(tokens.verify(`${token}.extra`)).toBeNull();
    expect(tokens.verify("")).toBeNull();
  });
});
