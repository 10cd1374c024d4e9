import { CONTACT_MESSAGES, defaultPublicSettings } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, csrfFor, messageOf } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { outboxOf, settleMail } from "../../../test/fan-mail.ts";

/** Issue 26 item 6: the operator's contact address and the form that mails it. */
describe("POST /api/contact", () => {
  let t: TestApp;
  let admin: string;
  const good = { name: "Mia", email: "Mia@Example.com", message: "Hello, I have a question." };

  beforeAll(async () => {
    t = await createTestApp({
      contactLimits: {
        perAddress: { max: 3, timeWindowMs: 60_000 },
        overall: { max: 4, timeWindowMs: 60_000 },
      },
    });
    admin = (await adminSession(t)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("the admin sets the contact address; the public settings show it; bad ones are 400", async () => {
    const settings = (await call(t, "GET", "/api/admin/settings", { token: admin })).json().data;
    const body = { ...settings, contactEmail: "not-an-address" };
    const bad = await call(t, "PUT", "/api/settings", { token: admin, body });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("contactEmail");
    const saved = await call(t, "PUT", "/api/settings", {
      token: admin,
      body: { ...settings, contactEmail: "hello@operator.example" },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const open = (await call(t, "GET", "/api/settings")).json();
    expect(open.contactEmail ?? open.data?.contactEmail).toBe("hello@operator.example");
    expect(defaultPublicSettings.contactEmail).toBe("");
  });

  it("bad input is a 400 naming the field", async () => {
    const cases: Array<[object, string, string]> = [
      [{ ...good, name: " " }, "name", CONTACT_MESSAGES.nameRequired],
      [{ ...good, email: "nope" }, "email", CONTACT_MESSAGES.invalidEmail],
      [{ ...good, message: "short" }, "message", CONTACT_MESSAGES.messageTooShort],
      [{ ...good, message: "x".repeat(5001) }, "message", CONTACT_MESSAGES.messageTooLong],
      [{ ...good, name: "Mia\nBcc: evil@example.com" }, "name", "control characters"],
    ];
    for (const [body, field, message] of cases) {
      const response = await call(t, "POST", "/api/contact", { body });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.body).toContain(field);
      expect(messageOf(response)).toContain(message);
    }
  });

  it("mails the operator (reply-to the visitor), then limits each address", async () => {
    const sent = await call(t, "POST", "/api/contact", { body: good });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ success: true, message: CONTACT_MESSAGES.sent });
    await settleMail(t);
    const [mail, ...more] = await outboxOf(t, "hello@operator.example");
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe("Contact form: message from Mia");
    expect(mail?.text).toContain("mia@example.com");
    expect(mail?.text).toContain("Hello, I have a question.");

    // A bot fills the hidden field: told "sent", nothing is sent.
    const bot = await call(t, "POST", "/api/contact", { body: { ...good, website: "x" } });
    expect(bot.statusCode).toBe(200);
    await call(t, "POST", "/api/contact", { body: good });
    const limited = await call(t, "POST", "/api/contact", { body: good });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBeDefined();
    await settleMail(t);
    expect(await outboxOf(t, "hello@operator.example")).toHaveLength(2);
  });

  it("an overall cap holds across addresses", async () => {
    const csrf = await csrfFor(t);
    const from = (remoteAddress: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/contact",
        remoteAddress,
        headers: { "csrf-token": csrf.token },
        cookies: { _csrf: csrf.cookie },
        payload: good,
      });
    // Three messages went through from the first address; the cap is four in all.
    expect((await from("10.0.0.9")).statusCode).toBe(200);
    const capped = await from("10.0.0.10");
    expect(capped.statusCode).toBe(429);
    await settleMail(t);
    expect(await outboxOf(t, "hello@operator.example")).toHaveLength(3);
  });

  it("without a contact address the form is refused plainly", async () => {
    const other = await createTestApp();
    try {
      const response = await call(other, "POST", "/api/contact", { body: good });
      expect(response.statusCode).toBe(503);
      expect(messageOf(response)).toBe(CONTACT_MESSAGES.unavailable);
    } finally {
      await other.close();
    }
  });
});
