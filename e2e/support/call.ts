import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "@playwright/test";
import {
  FAKE_OPENAI_KEY,
  type FakeOpenAi,
  type FakeOpenAiOptions,
  startFakeOpenAi,
} from "@twinline/fakes";
import type { BrowserContextOptions, Page } from "playwright-core";
import { ADMIN_ENV } from "./accounts";
import { launchBrowser, type TestBrowser } from "./browser";
import { type RunningServer, startServer } from "./server";
import { speechLikeWav } from "./speech-wav";

/**
 * The built app with speech-to-text and the LLM on the local OpenAI fake (the app's real SDK
 * code calls it) and a Chromium whose microphone is a WAV of speech-like syllables: ~2 s of
 * them, then 8 s of quiet before the file loops, so one utterance every 10 s.
 */
export interface CallSetup {
  server: RunningServer;
  browser: TestBrowser;
  provider: FakeOpenAi;
  /** Closes the browser, the server and the fake, and removes the microphone's file. */
  close(): Promise<void>;
}

export interface CallSetupOptions {
  /** What the fake hears and answers (transcription, reply, pacing). */
  provider: FakeOpenAiOptions;
  /** Runs in every page before the app's own scripts, e.g. to count the audio played. */
  initScript?: () => void;
  /** Options of every page's context beyond the microphone's permission, e.g. `bypassCSP`. */
  contextOptions?: BrowserContextOptions;
  /** How long the server may take to boot (a busy machine), as startServer takes it. */
  healthTimeoutMs?: number;
}

export async function startCallSetup(options: CallSetupOptions): Promise<CallSetup> {
  const workDir = await mkdtemp(join(tmpdir(), "twinline-call-e2e-"));
  let provider: FakeOpenAi | undefined;
  let server: RunningServer | undefined;
  const stopServerAndFake = async () => {
    await server?.stop();
    await provider?.close();
    await rm(workDir, { recursive: true, force: true });
  };
  try {
    const wav = join(workDir, "speech.wav");
    await writeFile(wav, speechLikeWav({ syllables: 7, tailSeconds: 8 }));
    provider = await startFakeOpenAi(options.provider);
    server = await startServer({
      env: { ...ADMIN_ENV, OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: provider.baseUrl },
      ...(options.healthTimeoutMs ? { healthTimeoutMs: options.healthTimeoutMs } : {}),
    });
    const browser = await launchBrowser({
      args: [
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        `--use-file-for-fake-audio-capture=${wav}`,
        "--autoplay-policy=no-user-gesture-required",
      ],
      viewport: { width: 390, height: 800 },
      contextOptions: { ...options.contextOptions, permissions: ["microphone"] },
      ...(options.initScript ? { initScript: options.initScript } : {}),
    });
    return {
      server,
      browser,
      provider,
      async close() {
        await browser.close();
        await stopServerAndFake();
      },
    };
  } catch (error) {
    await stopServerAndFake();
    throw error;
  }
}

/** Opens the call page of a fan with the sign-up credits (100) and presses Start call. */
export async function startCall(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/dashboard/call`);
  await page.getByTestId("call-credits").getByText("100 credits").waitFor();
  await page.getByRole("button", { name: "Start call" }).click();
}

/** Waits until the call's status says it is connected. */
export async function waitUntilConnected(page: Page) {
  await expect
    .poll(() => page.getByTestId("call-status").textContent(), { timeout: 20_000 })
    .toBe("Connected");
}

/** Hangs up; answers the server's answer to the call's report (POST /api/voice-call/end). */
export async function hangUp(page: Page) {
  const report = page.waitForResponse(
    (r) => r.url().endsWith("/api/voice-call/end") && r.request().method() === "POST",
    { timeout: 20_000 },
  );
  await page.getByRole("button", { name: "Hang up" }).click();
  return report;
}
