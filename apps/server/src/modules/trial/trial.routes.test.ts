import {
  aiNoticeText,
  conversationsResponseSchema,
  messagesPageResponseSchema,
  TRIAL_CODES,
  TRIAL_MESSAGES,
  trialMessageResponseSchema,
  trialStateResponseSchema,
} from "@twinline/contracts";
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADULT_BIRTH_DATE,
  adminSession,
  call,
  csrfFor,
  PASSWORD,
  uniqueEmail,
} from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { balanceOf } from "../../../test/credits.ts";
import { createManualClock } from "../../../test/manual-clock.ts";
import { trialConversations, trialMessages } from "../../db/schema/index.ts";
import { TRIAL_DEVICE_COOKIE } from "./device.ts";
import { TRIAL_CLEANUP_JOB } from "./plugin.ts";

const OFFLINE_CRISIS_SENTENCE = "i want to kill myself";
const DAY = 86_400_000;

/** A visitor's browser: its device cookie (once the server set one) and its address. */
class Visitor {
  device: string | undefined;
  constructor(
    readonly t: TestApp,
    readonly address = "203.0.113.7",
    readonly forwardedFor?: string,
  ) {}

  async request(
    method: "GET" | "POST",
    url: string,
    body?: object,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const csrf = await csrfFor(this.t);
    const response = await this.t.app.inject({
      method,
      url,
      remoteAddress: this.address,
      headers: {
        "csrf-token": csrf.token,
        ...(this.forwardedFor ? { "x-forwarded-for": this.forwardedFor } : {}),
        ...headers,
      },
      cookies: {
        _csrf: csrf.cookie,
        ...(this.device ? { [TRIAL_DEVICE_COOKIE]: this.device } : {}),
      },
      ...(body ? { payload: body } : {}),
    });
    const set = response.cookies.find((cookie) => cookie.name === TRIAL_DEVICE_COOKIE);
    if (set) this.device = set.value;
    return response;
  }

  send(message: string, stream = false) {
    return this.request(
      "POST",
      "/api/trial/message",
      { message },
      stream ? { accept: "text/event-stream" } : {},
    );
  }

  async state() {
    const response = await this.request("GET", "/api/trial");
    expect(response.statusCode, response.body).toBe(200);
    return trialStateResponseSchema.parse(response.json()).data;
  }

  async signUp(email = uniqueEmail("trial")) {
    const response = await this.request("POST", "/api/auth/signup", {
      name: "Trial Fan",
      email,
      password: PASSWORD,
      dateOfBirth: ADULT_BIRTH_DATE,
    });
    expect(response.statusCode, response.body).toBe(201);
    return { token: response.json().token as string, id: response.json().user.id as string, email };
  }

  login(email: string) {
    return this.request("POST", "/api/auth/login", { email, password: PASSWORD });
  }
}

const authed = (t: TestApp, token: string, url: string) =>
  t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });

async function conversationsOf(t: TestApp, token: string) {
  const response = await authed(t, token, "/api/chat/conversations");
  return conversationsResponseSchema.parse(response.json()).data;
}

async function messagesOf(t: TestApp, token: string, conversationId: string) {
  const response = await authed(t, token, `/api/chat/conversations/${conversationId}/messages`);
  return messagesPageResponseSchema.parse(response.json()).data.messages;
}

const codeOf = (response: LightMyRequestResponse) => response.json().code as string;

describe("the anonymous trial", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("answers exactly the allowance (3), then refuses the fourth with trial_used", async () => {
    const visitor = new Visitor(t, "198.51.100.1");
    expect(await visitor.state()).toEqual({ allowance: 3, remaining: 3, messages: [] });
    const remaining: number[] = [];
    for (const message of ["Hello there", "What do you like?", "Tell me a story"]) {
      const response = await visitor.send(message);
      expect(response.statusCode, response.body).toBe(200);
      const data = trialMessageResponseSchema.parse(response.json()).data;
      expect(data.response.length).toBeGreaterThan(0);
      remaining.push(data.remaining as number);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const cookie = (await visitor.send("One more?")).cookies;
    const refused = await visitor.send("One more?");
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe(TRIAL_CODES.used);
    expect(refused.json().message).toBe(TRIAL_MESSAGES.used);
    expect(cookie.find((c) => c.name === TRIAL_DEVICE_COOKIE)?.httpOnly).toBe(true);

    const state = await visitor.state();
    expect(state.remaining).toBe(0);
    // The conversation: the AI notice, then three turns of visitor and persona.
    expect(state.messages.map((m) => m.sender)).toEqual([
      "user",
      "product",
      "ai",
      "user",
      "ai",
      "user",
      "ai",
    ]);
  });

  it("counts per device: another browser at the same address has its own allowance", async () => {
    const first = new Visitor(t, "198.51.100.2");
    for (let i = 0; i < 3; i++) expect((await first.send(`hi ${i}`)).statusCode).toBe(200);
    const second = new Visitor(t, "198.51.100.2");
    expect((await second.send("hello")).statusCode).toBe(200);
    // A forged device cookie is no device: it gets a fresh one, not someone else's trial.
    const forger = new Visitor(t, "198.51.100.2");
    forger.device = `${first.device?.split(".")[0]}.forged`;
    expect((await forger.state()).remaining).toBe(3);
  });

  it("gives the AI notice at the start, before the reply, streamed like the member chat", async () => {
    const visitor = new Visitor(t, "198.51.100.3");
    const response = await visitor.send("Good morning", true);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/event-stream");
    const events = response.body
      .split("\n\n")
      .filter((block) => block.trim())
      .map((block) => ({
        event: /^event: (.*)$/m.exec(block)?.[1],
        data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null"),
      }));
    expect(events[0]).toMatchObject({
      event: "notice",
      data: { sender: "product", productKind: "ai-notice" },
    });
    const name = (await t.app.settings.get()).aiProfile.name;
    expect(events[0]?.data.content).toBe(aiNoticeText(name));
    expect(events.some((e) => e.event === "token")).toBe(true);
    expect(events.at(-1)?.event).toBe("done");
    // The second message of the sitting gets no second notice.
    const again = trialMessageResponseSchema.parse((await visitor.send("And you?")).json()).data;
    expect(again.notices ?? []).toEqual([]);
  });

  it("answers crisis words with the crisis message and resources, free of the allowance", async () => {
    const visitor = new Visitor(t, "198.51.100.4");
    const response = await visitor.send(OFFLINE_CRISIS_SENTENCE);
    expect(response.statusCode, response.body).toBe(200);
    const data = trialMessageResponseSchema.parse(response.json()).data;
    expect(data.aiMessage).toMatchObject({ sender: "product", productKind: "crisis-support" });
    expect(data.crisis?.resources.length).toBeGreaterThan(0);
    expect(data.remaining).toBe(3);
    expect((await visitor.state()).remaining).toBe(3);
  });

  it("refuses bad input with 400 naming the field, as the member chat does", async () => {
    const visitor = new Visitor(t, "198.51.100.5");
    const nul = await visitor.send("hello\u0000there");
    expect(nul.statusCode).toBe(400);
    expect(nul.body).toContain("message");
    const lone = await visitor.send("broken \uD800 text");
    expect(lone.statusCode).toBe(400);
    const missing = await visitor.request("POST", "/api/trial/message", { text: "hi" });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain("message");
    const blank = await visitor.send("   ");
    expect(blank.statusCode).toBe(400);
    // None of them used the allowance.
    expect((await visitor.state()).remaining).toBe(3);
  });

  it("hands the conversation over at sign-up; the twin remembers it; no credit or free message spent", async () => {
    const visitor = new Visitor(t, "198.51.100.6");
    expect((await visitor.send("I love hiking in the Alps")).statusCode).toBe(200);
    expect((await visitor.send("What should I pack?")).statusCode).toBe(200);
    const { token, id } = await visitor.signUp();

    const conversations = await conversationsOf(t, token);
    expect(conversations).toHaveLength(1);
    expect(conversations[0]?.messageCount).toBe(4);
    const moved = await messagesOf(t, token, conversations[0]?._id ?? "");
    expect(
      moved
        .filter((m) => m.sender === "user")
        .map((m) => m.content)
        .sort(),
    ).toEqual(["I love hiking in the Alps", "What should I pack?"]);
    // What the twin remembers of the fan includes what they told it before signing up.
    const memory = (await authed(t, token, "/api/memory")).json();
    expect(memory.data.facts.map((f: { content: string }) => f.content)).toContain(
      "I love hiking in the Alps",
    );
    // Anonymous messages cost nothing and are none of the account's free messages.
    const usage = (await authed(t, token, "/api/chat/usage")).json().data;
    expect(usage.sentToday).toBe(0);
    expect(await balanceOf(t, id)).toBe((await t.app.settings.get()).defaultCredits);
    // The trial is gone from the device.
    const state = await visitor.state();
    expect(state.messages).toEqual([]);
    expect(state.remaining).toBe(0);
    expect(await t.app.database.db.select().from(trialMessages)).not.toContainEqual(
      expect.objectContaining({ content: "I love hiking in the Alps" }),
    );
  });

  it("hands over at login exactly once, with logins raced and repeated", async () => {
    const owner = new Visitor(t, "198.51.100.7");
    const { email, token } = await owner.signUp();
    const visitor = new Visitor(t, "198.51.100.8");
    expect((await visitor.send("Remember me?")).statusCode).toBe(200);
    const logins = await Promise.all([visitor.login(email), visitor.login(email)]);
    expect(logins.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await visitor.login(email)).statusCode).toBe(200);
    const conversations = await conversationsOf(t, token);
    expect(conversations).toHaveLength(1);
    const moved = await messagesOf(t, token, conversations[0]?._id ?? "");
    expect(moved.filter((m) => m.content === "Remember me?")).toHaveLength(1);
    // After the hand-over the device chats no more without an account.
    const after = await visitor.send("Still there?");
    expect(after.statusCode).toBe(403);
    expect(codeOf(after)).toBe(TRIAL_CODES.used);
  });

  it("is off at 0: the state says so and the server refuses", async () => {
    await t.app.settings.update({ anonymousMessages: 0 });
    try {
      const visitor = new Visitor(t, "198.51.100.9");
      expect((await visitor.state()).allowance).toBe(0);
      const refused = await visitor.send("Hello");
      expect(refused.statusCode).toBe(403);
      expect(codeOf(refused)).toBe(TRIAL_CODES.off);
    } finally {
      await t.app.settings.update({ anonymousMessages: 3 });
    }
  });
});

/** A test app whose operator set the trial's daily caps (per address, whole site). */
async function appWithCaps(perAddressPerDay: number, perDay: number, env?: Record<string, string>) {
  const t = await createTestApp(env ? { env } : {});
  await t.app.settings.update({
    anonymousMessagesPerAddressPerDay: perAddressPerDay,
    anonymousMessagesPerDay: perDay,
  });
  return t;
}

describe("the trial's caps per address and per day", () => {
  it("counts per address: devices of one address share its cap, another address has its own", async () => {
    const t = await appWithCaps(4, 100);
    try {
      const a = new Visitor(t, "192.0.2.10");
      for (let i = 0; i < 3; i++) expect((await a.send(`a ${i}`)).statusCode).toBe(200);
      const b = new Visitor(t, "192.0.2.10");
      expect((await b.send("b 1")).statusCode).toBe(200);
      const refused = await b.send("b 2");
      expect(refused.statusCode).toBe(429);
      expect(codeOf(refused)).toBe(TRIAL_CODES.address);
      // The refused message did not use the device's allowance.
      expect((await b.state()).remaining).toBe(2);
      // Without TRUST_PROXY a forwarded-for header is ignored: the same address is refused.
      const spoofing = new Visitor(t, "192.0.2.10", "198.18.0.1");
      expect(codeOf(await spoofing.send("spoof"))).toBe(TRIAL_CODES.address);
      expect((await new Visitor(t, "192.0.2.11").send("c")).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  }, 120_000);

  it("behind TRUST_PROXY counts the forwarded client address", async () => {
    const t = await appWithCaps(2, 100, { TRUST_PROXY: "1" });
    try {
      const proxy = "10.0.0.2";
      const one = new Visitor(t, proxy, "198.18.0.1");
      expect((await one.send("1")).statusCode).toBe(200);
      expect((await one.send("2")).statusCode).toBe(200);
      expect(codeOf(await new Visitor(t, proxy, "198.18.0.1").send("3"))).toBe(TRIAL_CODES.address);
      // Another client behind the same proxy is another address.
      expect((await new Visitor(t, proxy, "198.18.0.2").send("4")).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  }, 120_000);

  it("stops every visitor at the site's daily cap", async () => {
    const t = await appWithCaps(100, 3);
    try {
      const statuses: number[] = [];
      let last: LightMyRequestResponse | undefined;
      for (let n = 1; n <= 5; n++) {
        last = await new Visitor(t, `192.0.2.${20 + n}`).send("hello");
        statuses.push(last.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(last && codeOf(last)).toBe(TRIAL_CODES.global);
    } finally {
      await t.close();
    }
  }, 120_000);

  it("applies the operator's saved caps to the very next message", async () => {
    const t = await appWithCaps(1, 2);
    try {
      const visitor = new Visitor(t, "192.0.2.30");
      expect((await visitor.send("one")).statusCode).toBe(200);
      expect(codeOf(await visitor.send("two"))).toBe(TRIAL_CODES.address);

      // The admin raises the address's cap in the settings screen: the same address goes on...
      const admin = await adminSession(t);
      const save = async (patch: Record<string, number>) => {
        const current = (await call(t, "GET", "/api/admin/settings", { token: admin.token })).json()
          .data;
        const { apiKeys, providers: _p, keyTests: _k, embedScriptUrl: _e, ...rest } = current;
        const saved = await call(t, "PUT", "/api/settings", {
          token: admin.token,
          body: { ...rest, apiKeys, ...patch },
        });
        expect(saved.statusCode, saved.body).toBe(200);
      };
      await save({ anonymousMessagesPerAddressPerDay: 5 });
      expect((await visitor.send("two")).statusCode).toBe(200);
      // ...until the site's cap of 2 for the day is reached, by anyone.
      const other = await new Visitor(t, "192.0.2.31").send("three");
      expect(other.statusCode).toBe(429);
      expect(codeOf(other)).toBe(TRIAL_CODES.global);

      // Lowered below today's count, the cap refuses at once.
      await save({ anonymousMessagesPerDay: 100, anonymousMessagesPerAddressPerDay: 1 });
      expect(codeOf(await visitor.send("three"))).toBe(TRIAL_CODES.address);
      expect((await new Visitor(t, "192.0.2.31").send("three")).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe("the trial clean-up job", () => {
  it("deletes an anonymous conversation 30 days after its last message, not before", async () => {
    const clock = createManualClock();
    const t = await createTestApp({ billingClock: clock, jobWorkers: false });
    try {
      const visitor = new Visitor(t, "192.0.2.40");
      expect((await visitor.send("Hello")).statusCode).toBe(200);
      const id = (
        await t.app.database.db
          .select()
          .from(trialConversations)
          .where(eq(trialConversations.deviceId, visitor.device?.split(".")[0] ?? ""))
      )[0]?.id;
      const rows = async () =>
        (await t.app.database.db.select().from(trialMessages)).filter((m) => m.trialId === id);
      const run = async () => {
        await t.app.jobs.send(TRIAL_CLEANUP_JOB, {});
        await t.app.jobs.runDue(TRIAL_CLEANUP_JOB);
      };
      expect((await rows()).length).toBeGreaterThan(0);
      await clock.jump(29 * DAY);
      await run();
      expect((await rows()).length).toBeGreaterThan(0);
      expect((await visitor.state()).messages.length).toBeGreaterThan(0);
      await clock.jump(2 * DAY);
      await run();
      expect(await rows()).toEqual([]);
      expect(await visitor.state()).toEqual({ allowance: 3, remaining: 3, messages: [] });
    } finally {
      await t.close();
    }
  }, 120_000);
});
