import { expect, test } from "@playwright/test";
import type { FakeOpenAi } from "@twinline/fakes";
import type { Page } from "playwright-core";
import { changeSettingsAsAdmin, signUpFan, uniqueFan } from "./support/accounts";
import { horizontalOverflow, type TestBrowser } from "./support/browser";
import {
  type CallSetup,
  hangUp,
  startCall,
  startCallSetup,
  waitUntilConnected,
} from "./support/call";
import type { RunningServer } from "./support/server";

// A live voice call in Chromium against the built app. The microphone is a WAV file of
// speech-like syllables (support/call.ts, looped by Chromium); speech-to-text and the LLM are a local
// server speaking the OpenAI API (@twinline/fakes; the app's real SDK code calls it); the persona's voice is the
// offline synthesiser. The page is instrumented to count the audio buffers it plays and how loud
// they are, so the test "hears" the persona start speaking.

const HEARD = "Hello, can you hear me through the test microphone?";
const REPLY = ["Yes, I hear you ", "loud and clear. ", "Thanks for calling me today."];

let setup: CallSetup;
let server: RunningServer;
let browser: TestBrowser;
let provider: FakeOpenAi;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  setup = await startCallSetup({
    provider: { transcription: HEARD, reply: REPLY, gapMs: 40 },
    initScript: instrumentPlayback,
  });
  ({ server, browser, provider } = setup);
});

test.afterEach(async () => {
  await browser?.closePages();
});

test.afterAll(() => setup?.close());

/** Counts every audio buffer the page starts playing, and the loudest sample in it. */
function instrumentPlayback() {
  const played = { buffers: 0, seconds: 0, peak: 0, stopped: 0, interrupts: 0 };
  (window as unknown as { __played: typeof played }).__played = played;
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (this: AudioBufferSourceNode, ...args) {
    const buffer = this.buffer;
    if (buffer) {
      played.buffers += 1;
      played.seconds += buffer.duration;
      const data = buffer.getChannelData(0);
      for (let i = 0; i < data.length; i += 16) {
        played.peak = Math.max(played.peak, Math.abs(data[i] ?? 0));
      }
    }
    return start.apply(this, args as Parameters<typeof start>);
  } as typeof start;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data) {
    if (typeof data === "string" && data.includes('"interrupt"')) played.interrupts += 1;
    return send.call(this, data);
  } as typeof send;
  const stop = AudioBufferSourceNode.prototype.stop;
  AudioBufferSourceNode.prototype.stop = function (this: AudioBufferSourceNode, ...args) {
    played.stopped += 1;
    return stop.apply(this, args as Parameters<typeof stop>);
  } as typeof stop;
}

const played = (page: Page) =>
  page.evaluate(
    () =>
      (
        window as unknown as {
          __played: {
            buffers: number;
            seconds: number;
            peak: number;
            stopped: number;
            interrupts: number;
          };
        }
      ).__played,
  );

test.describe("voice call", () => {
  test("places a call, hears the persona answer, hangs up and finds the call in call history", async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    const token = await signUpFan(page, server.url, uniqueFan("caller", "Test User"));
    await startCall(page, server.url);
    const overlay = page.getByRole("dialog", { name: /^Call with / });
    await overlay.waitFor();
    await waitUntilConnected(page);
    await page
      .getByTestId("call-remaining")
      .getByText(/95 credits/)
      .waitFor();

    // The fake microphone speaks; Silero VAD (its model and onnxruntime's WASM served by this
    // app, run in this Chromium) hears it; the utterance goes up, is transcribed and answered,
    // and the live captions show both sides.
    const captions = page.getByRole("log");
    await captions.getByTestId("call-transcript").first().getByText(HEARD).waitFor({
      timeout: 30_000,
    });
    await captions
      .getByTestId("call-response")
      .first()
      .getByText(/loud and clear/)
      .waitFor({ timeout: 30_000 });
    expect(await captions.getAttribute("aria-live")).toBe("polite");
    const vadFiles = requested.filter((url) => new URL(url).pathname.startsWith("/vad/"));
    expect(vadFiles.map((url) => new URL(url).pathname)).toEqual(
      expect.arrayContaining(["/vad/silero_vad_v5.onnx", "/vad/ort-wasm-simd-threaded.wasm"]),
    );
    expect(
      requested.filter((url) => !url.startsWith(server.url) && !url.startsWith("data:")),
    ).toEqual([]);
    // The persona's voice plays: buffers started, with sound in them.
    await expect
      .poll(async () => (await played(page)).buffers, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const audio = await played(page);
    expect(audio.seconds).toBeGreaterThan(0.3);
    expect(audio.peak).toBeGreaterThan(0.05);

    const mute = page.getByRole("button", { name: "Mute microphone" });
    await mute.click();
    expect(
      await page.getByRole("button", { name: "Unmute microphone" }).getAttribute("aria-pressed"),
    ).toBe("true");

    const report = await hangUp(page);
    expect(report.ok()).toBe(true);
    await expect.poll(() => page.getByTestId("call-status").textContent()).toBe("Call ended");
    // Said once, not in the status and again below it.
    expect(await overlay.getByText("Call ended", { exact: true }).count()).toBe(1);
    await page.getByRole("button", { name: "Close" }).click();
    await overlay.waitFor({ state: "detached" });
    // One started minute at the default 5 credits per minute.
    await page.getByTestId("call-credits").getByText("95 credits").waitFor();

    await page.goto(`${server.url}/dashboard/call-history`);
    const rows = page.getByTestId("call-row");
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    const cells = await rows.first().locator("td").allTextContents();
    expect(cells[2]).toBe("5");
    expect(cells[3]).not.toBe("In progress");

    // The server's record agrees.
    const history = await page.context().request.get(`${server.url}/api/voice-call/history`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await history.json()) as {
      calls: { creditsConsumed: number; duration: number; endTime: string | null }[];
    };
    expect(body.calls).toHaveLength(1);
    expect(body.calls[0]?.creditsConsumed).toBe(5);
    expect(body.calls[0]?.endTime).not.toBeNull();
    expect(body.calls[0]?.duration).toBeGreaterThan(0);
    // The provider heard one self-contained recording per utterance.
    const uploads = provider.requests.filter((r) => r.path.endsWith("/audio/transcriptions"));
    expect(uploads.length).toBeGreaterThan(0);
  });

  test("speaking over the persona stops its voice and cancels the rest of its reply", async () => {
    // A long reply, streamed slowly (20 s): the model is still streaming when the looped
    // microphone file speaks again (10 s later), however late a loaded machine started it.
    const before = { reply: provider.reply, gapMs: provider.gapMs };
    provider.reply = Array.from(
      { length: 40 },
      (_, i) => `This is sentence number ${i + 1} of a very long answer. `,
    );
    provider.gapMs = 500;
    const cutBefore = provider.streamsCutShort;
    try {
      const page = await browser.newPage();
      await signUpFan(page, server.url, uniqueFan("interrupter", "Test User"));
      await startCall(page, server.url);
      await expect
        .poll(async () => (await played(page)).buffers, { timeout: 30_000 })
        .toBeGreaterThan(0);
      expect((await played(page)).stopped).toBe(0);
      // The second utterance comes while the persona speaks: its audio stops at once…
      await expect
        .poll(async () => (await played(page)).stopped, { timeout: 30_000 })
        .toBeGreaterThan(0);
      // …because the browser heard the user over the persona and said so (not only because the
      // server cut the reply when the next utterance arrived)…
      expect((await played(page)).interrupts).toBeGreaterThan(0);
      // …and the server stops the model's stream.
      await expect
        .poll(() => provider.streamsCutShort, { timeout: 15_000 })
        .toBeGreaterThan(cutBefore);
      await page.getByRole("button", { name: "Hang up" }).click();
      await expect.poll(() => page.getByTestId("call-status").textContent()).toBe("Call ended");
    } finally {
      provider.reply = before.reply;
      provider.gapMs = before.gapMs;
    }
  });

  test("a new user with fewer credits than a minute costs is told so and cannot start", async () => {
    // New accounts get 3 credits from now on (a minute costs 5).
    const admin = await browser.newPage(1280);
    await changeSettingsAsAdmin(admin, server.url, { defaultCredits: 3 });

    const page = await browser.newPage(360);
    await signUpFan(page, server.url, uniqueFan("short", "Test User"));
    await page.goto(`${server.url}/dashboard/call`);
    await page.getByText("Not enough credits to start a call").waitFor();
    await page
      .getByText("You need at least 5 credits to start a call. You currently have 3 credits.")
      .waitFor();
    expect(await page.getByRole("button", { name: "Start call" }).isDisabled()).toBe(true);
    // Nothing is wider than a 360 px phone.
    expect(await horizontalOverflow(page)).toBe(0);
  });
});
