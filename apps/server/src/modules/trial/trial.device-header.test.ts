import {
  conversationsResponseSchema,
  messagesPageResponseSchema,
  TRIAL_CODES,
  TRIAL_DEVICE_HEADER,
  TRIAL_DEVICE_NONE,
  trialMessageResponseSchema,
  trialStateResponseSchema,
} from "@twinline/contracts";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADULT_BIRTH_DATE, csrfFor, PASSWORD, uniqueEmail } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { TRIAL_DEVICE_COOKIE } from "./device.ts";

/**
 * The trial's device in a header (decision 0089): the embed frame on another site keeps no
 * cookie, so it sends the signed id the server gave it in TRIAL_DEVICE_HEADER, and its sign-in
 * popup sends the same id with the sign-up or login for the hand-over.
 */

/** The embed frame: no cookie of its own, the device in the header. */
class Frame {
  constructor(
    readonly t: TestApp,
    readonly address: string,
    public device: string = TRIAL_DEVICE_NONE,
  ) {}

  async request(method: "GET" | "POST", url: string, body?: object) {
    const csrf = await csrfFor(this.t);
    const response = await this.t.app.inject({
      method,
      url,
      remoteAddress: this.address,
      headers: { "csrf-token": csrf.token, [TRIAL_DEVICE_HEADER]: this.device },
      cookies: { _csrf: csrf.cookie },
      ...(body ? { payload: body } : {}),
    });
    const given = response.headers[TRIAL_DEVICE_HEADER];
    if (typeof given === "string") this.device = given;
    return response;
  }

  send(message: string) {
    return this.request("POST", "/api/trial/message", { message });
  }

  async state() {
    const response = await this.request("GET", "/api/trial");
    expect(response.statusCode, response.body).toBe(200);
    return trialStateResponseSchema.parse(response.json()).data;
  }

  signUp(email = uniqueEmail("embed-trial")) {
    return this.request("POST", "/api/auth/signup", {
      name: "Embed Fan",
      email,
      password: PASSWORD,
      dateOfBirth: ADULT_BIRTH_DATE,
    });
  }
}

const codeOf = (response: LightMyRequestResponse) => response.json().code as string;

async function conversationsOf(t: TestApp, token: string) {
  const response = await t.app.inject({
    method: "GET",
    url: "/api/chat/conversations",
    headers: { authorization: `Bearer ${token}` },
  });
  return conversationsResponseSchema.parse(response.json()).data;
}

async function userMessagesOf(t: TestApp, token: string, conversationId: string) {
  const response = await t.app.inject({
    method: "GET",
    url: `/api/chat/conversations/${conversationId}/messages`,
    headers: { authorization: `Bearer ${token}` },
  });
  return messagesPageResponseSchema
    .parse(response.json())
    .data.messages.filter((m) => m.sender === "user")
    .map((m) => m.content);
}

describe("the trial's device in a header (the embed frame)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("gives the frame a signed device in the header, no cookie, and refuses the fourth message", async () => {
    const frame = new Frame(t, "198.51.100.101");
    const first = await frame.send("Hello from the frame");
    expect(first.statusCode, first.body).toBe(200);
    expect(frame.device).not.toBe(TRIAL_DEVICE_NONE);
    // Signed: the id, a dot, the signature.
    expect(frame.device).toMatch(/^[\w-]{24}\.\S+$/);
    expect(first.cookies.find((c) => c.name === TRIAL_DEVICE_COOKIE)).toBeUndefined();
    const remaining = [trialMessageResponseSchema.parse(first.json()).data.remaining];
    for (const message of ["Second", "Third"]) {
      const response = await frame.send(message);
      expect(response.statusCode, response.body).toBe(200);
      remaining.push(trialMessageResponseSchema.parse(response.json()).data.remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const refused = await frame.send("A fourth?");
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe(TRIAL_CODES.used);
    const state = await frame.state();
    expect(state.remaining).toBe(0);
    expect(state.messages.filter((m) => m.sender === "user").map((m) => m.content)).toEqual([
      "Hello from the frame",
      "Second",
      "Third",
    ]);
  });

  it("treats an absent, empty, unsigned, forged or oversized header as no device, never a 500", async () => {
    const owner = new Frame(t, "198.51.100.102");
    expect((await owner.send("My own words")).statusCode).toBe(200);
    const [id] = owner.device.split(".");
    const bad = [
      "",
      TRIAL_DEVICE_NONE,
      id ?? "",
      `${id}.forged-signature`,
      `${owner.device}x`,
      "x".repeat(5_000),
      "\u00e9t\u00e9",
    ];
    for (const value of bad) {
      const frame = new Frame(t, "198.51.100.103", value);
      const state = await frame.state();
      expect(state, value.slice(0, 40)).toEqual({ allowance: 3, remaining: 3, messages: [] });
    }
    // A forged id sends on a new device of its own, not on the owner's trial.
    const forger = new Frame(t, "198.51.100.103", `${id}.forged-signature`);
    const sent = await forger.send("Whose trial is this?");
    expect(sent.statusCode, sent.body).toBe(200);
    expect(forger.device.split(".")[0]).not.toBe(id);
    expect((await owner.state()).messages.map((m) => m.content)).not.toContain(
      "Whose trial is this?",
    );
    expect((await forger.state()).remaining).toBe(2);
  });

  it("hands the frame's trial over at sign-up in the popup, exactly once", async () => {
    const frame = new Frame(t, "198.51.100.104");
    expect((await frame.send("I play the cello")).statusCode).toBe(200);
    expect((await frame.send("Bach mostly")).statusCode).toBe(200);
    // The popup: first-party, the frame's device given to it, sent with the sign-up.
    const popup = new Frame(t, "198.51.100.104", frame.device);
    const email = uniqueEmail("embed-trial");
    const signedUp = await popup.signUp(email);
    expect(signedUp.statusCode, signedUp.body).toBe(201);
    const token = signedUp.json().token as string;
    const conversations = await conversationsOf(t, token);
    expect(conversations).toHaveLength(1);
    expect((await userMessagesOf(t, token, conversations[0]?._id ?? "")).sort()).toEqual([
      "Bach mostly",
      "I play the cello",
    ]);
    // A login with the same device moves nothing again; the device has no allowance left.
    const again = await popup.request("POST", "/api/auth/login", { email, password: PASSWORD });
    expect(again.statusCode, again.body).toBe(200);
    expect(await conversationsOf(t, token)).toHaveLength(1);
    const after = await frame.send("Still free?");
    expect(after.statusCode).toBe(403);
    expect(codeOf(after)).toBe(TRIAL_CODES.used);
  });

  it("signs up normally with a forged device header, handing nothing over", async () => {
    const victim = new Frame(t, "198.51.100.105");
    expect((await victim.send("Private words")).statusCode).toBe(200);
    const [id] = victim.device.split(".");
    const attacker = new Frame(t, "198.51.100.106", `${id}.not-the-signature`);
    const signedUp = await attacker.signUp();
    expect(signedUp.statusCode, signedUp.body).toBe(201);
    expect(await conversationsOf(t, signedUp.json().token as string)).toEqual([]);
    expect((await victim.state()).messages.map((m) => m.content)).toContain("Private words");
  });
});

describe("fresh frames (a reload in a frame without storage)", () => {
  it("are bounded by the address's daily cap", async () => {
    const t = await createTestApp();
    try {
      await t.app.settings.update({
        anonymousMessagesPerAddressPerDay: 4,
        anonymousMessagesPerDay: 100,
      });
      const statuses: number[] = [];
      // Each reload of a frame without storage starts with no device.
      for (let i = 0; i < 3; i++) {
        const frame = new Frame(t, "192.0.2.50");
        statuses.push((await frame.send(`reload ${i} a`)).statusCode);
        statuses.push((await frame.send(`reload ${i} b`)).statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await t.close();
    }
  }, 120_000);
});
