import { Writable } from "node:stream";
import { MASK_CHAR } from "@twinline/contracts";
import {
  type FakeElevenLabs,
  type FakeOpenAi,
  startFakeElevenLabs,
  startFakeOpenAi,
} from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError } from "../src/plugins/errors.ts";
import { adminSession, call, signUp } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";

// Keys of every awkward shape: . , ; ' " and spaces inside, no provider's shape.
const ENV_OPENAI_KEY = `sk-env.Alpha,Bravo;Charlie'Delta"Echo Foxtrot-7Q2w`;
const STORED_OPENAI_KEY = `sk-sto.Golf,Hotel;India'Juliet"Kilo Lima-8R3e`;
const TESTED_OPENAI_KEY = `sk-tst.Mike,November;Oscar'Papa"Quebec Romeo-9T4r`;
const TESTED_ELEVENLABS_KEY = `el.Sierra,Tango;Uniform'Victor"Whiskey Xray 0Y5t`;
const JWT_SECRET = `jwt.Yankee,Zulu;Ampere'Bohr"Curie Dalton Euler 1U6y`;
const SECRETS_KEY = `sec.Faraday,Gauss;Hertz'Joule"Kelvin Lorentz 2I7u`;
const SECRETS = [
  ENV_OPENAI_KEY,
  STORED_OPENAI_KEY,
  TESTED_OPENAI_KEY,
  TESTED_ELEVENLABS_KEY,
  JWT_SECRET,
  SECRETS_KEY,
];

/** Every 6-character piece of a secret, as written and inside JSON: none may appear anywhere. */
function fragmentsOf(secret: string): string[] {
  const pieces = new Set<string>();
  for (const form of [secret, JSON.stringify(secret).slice(1, -1)]) {
    for (let i = 0; i + 6 <= form.length; i++) pieces.add(form.slice(i, i + 6));
  }
  return [...pieces];
}

function leaks(text: string): string[] {
  return SECRETS.flatMap((secret) => fragmentsOf(secret).filter((piece) => text.includes(piece)));
}

describe("secrets never leave: redacted by value from answers, errors and logs", () => {
  let t: TestApp;
  let openai: FakeOpenAi;
  let elevenLabs: FakeElevenLabs;
  const logLines: string[] = [];
  const answers: string[] = [];

  beforeAll(async () => {
    // Providers that quote every key they refuse, whole, starred and URL-encoded.
    openai = await startFakeOpenAi({ echoKey: true });
    elevenLabs = await startFakeElevenLabs({ echoKey: true });
    t = await createTestApp({
      env: {
        OPENAI_API_KEY: ENV_OPENAI_KEY,
        OPENAI_BASE_URL: openai.baseUrl,
        ELEVENLABS_BASE_URL: elevenLabs.origin,
        JWT_SECRET,
        SECRETS_KEY,
      },
      logger: {
        level: "trace",
        stream: new Writable({
          write(chunk, _encoding, done) {
            logLines.push(chunk.toString());
            done();
          },
        }),
      },
      register: async (app) => {
        // Code that slips: errors and answers quoting configured and stored secrets.
        app.get("/api/test/throws", async () => {
          throw new Error(`database said: ${JWT_SECRET} / ${SECRETS_KEY}`);
        });
        app.get("/api/test/refuses", async () => {
          throw new HttpError(400, `refused ${ENV_OPENAI_KEY}`, { key: STORED_OPENAI_KEY });
        });
        app.get("/api/test/answers", async (request) => {
          request.log.info({ config: { jwt: JWT_SECRET } }, `answering with ${SECRETS_KEY}`);
          return { echoed: [ENV_OPENAI_KEY, STORED_OPENAI_KEY] };
        });
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await openai?.close();
    await elevenLabs?.close();
  });

  const record = <A extends { body: string }>(answer: A): A => {
    answers.push(answer.body);
    return answer;
  };

  it("a provider quoting the environment's key, then the stored key, leaks no part of either", async () => {
    const { token } = await signUp(t);
    const refused = record(
      await call(t, "POST", "/api/chat/message", { token, body: { message: "Hello" } }),
    );
    expect(refused.statusCode).toBe(502);
    // The request reached the provider with the key (the test would prove nothing otherwise).
    expect(openai.requests.at(-1)?.headers.authorization).toBe(`Bearer ${ENV_OPENAI_KEY}`);

    await t.app.providerKeys.write({ openai: STORED_OPENAI_KEY });
    const again = record(
      await call(t, "POST", "/api/chat/message", { token, body: { message: "Hello again" } }),
    );
    expect(again.statusCode).toBe(502);
    expect(openai.requests.at(-1)?.headers.authorization).toBe(`Bearer ${STORED_OPENAI_KEY}`);
  });

  it("the admin's key tests answer the provider's refusal without the key", async () => {
    const admin = (await adminSession(t)).token;
    const openaiTest = record(
      await call(t, "POST", "/api/settings/test-openai", {
        token: admin,
        body: { apiKey: TESTED_OPENAI_KEY },
      }),
    );
    expect(openaiTest.statusCode).toBe(400);
    expect(openaiTest.json().message).toContain("[redacted]");
    const elevenLabsTest = record(
      await call(t, "POST", "/api/settings/test-elevenlabs", {
        token: admin,
        body: { apiKey: TESTED_ELEVENLABS_KEY },
      }),
    );
    expect(elevenLabsTest.statusCode).toBe(400);
    expect(elevenLabs.requests.at(-1)?.headers["xi-api-key"]).toBe(TESTED_ELEVENLABS_KEY);

    // A key of no provider's shape is shown as dots only; the settings still answer.
    const settings = record(await call(t, "GET", "/api/admin/settings", { token: admin }));
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json().data.apiKeys.openai).toBe(MASK_CHAR.repeat(8));
    // The form sends the mask back: the stored key stays.
    const saved = record(
      await call(t, "PUT", "/api/settings", {
        token: admin,
        body: { ...settings.json().data, providers: undefined },
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await t.app.providerKeys.read()).openai).toBe(STORED_OPENAI_KEY);
  });

  it("errors, refusals and answers of any route lose every secret", async () => {
    const crashed = record(await call(t, "GET", "/api/test/throws"));
    expect(crashed.statusCode).toBe(500);
    const refused = record(await call(t, "GET", "/api/test/refuses"));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      success: false,
      message: "refused [redacted]",
      error: { key: "[redacted]" },
    });
    const answered = record(await call(t, "GET", "/api/test/answers"));
    expect(answered.json()).toEqual({ echoed: ["[redacted]", "[redacted]"] });
  });

  it("no fragment of any key or secret is in any answer or any log line", () => {
    // The logs did see the failures (the check below would prove nothing otherwise).
    const log = logLines.join("");
    expect(log).toContain("Request failed");
    expect(log).toContain("[redacted]");
    expect(leaks(answers.join("\n"))).toEqual([]);
    expect(leaks(log)).toEqual([]);
  });
});
