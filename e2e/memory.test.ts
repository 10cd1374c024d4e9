import { expect, test } from "@playwright/test";
import { signUpFan, uniqueFan } from "./support/accounts";
import type { TestBrowser } from "./support/browser";
import {
  type CallSetup,
  hangUp,
  startCall,
  startCallSetup,
  waitUntilConnected,
} from "./support/call";
import type { RunningServer } from "./support/server";

// One conversation across calls and chat, in Chromium against the built app: a call placed with
// the fake microphone (a WAV of speech-like syllables; speech-to-text and the LLM are the local
// OpenAI fake, called by the app's real SDK code), then its transcript read in the chat, in the
// call history, and what was told found under "What <persona> remembers" on the profile.

const HEARD = "My name is Robin and I love sailing on the lake.";
const REPLY = ["Sailing on the lake sounds lovely, Robin."];

let setup: CallSetup;
let server: RunningServer;
let browser: TestBrowser;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  setup = await startCallSetup({ provider: { transcription: HEARD, reply: REPLY } });
  ({ server, browser } = setup);
});

test.afterEach(async () => {
  await browser?.closePages();
});

test.afterAll(() => setup?.close());

test.describe("memory across calls and chat", () => {
  test("a call's transcript is in the chat, the call history and what the persona remembers", async () => {
    const page = await browser.newPage();
    await signUpFan(page, server.url, uniqueFan("rememberer", "Test User"));
    await startCall(page, server.url);
    await waitUntilConnected(page);
    // The fake microphone speaks; the persona answers.
    await page.getByText(HEARD).first().waitFor({ timeout: 30_000 });
    await page
      .getByText(/sounds lovely/)
      .first()
      .waitFor({ timeout: 30_000 });
    expect((await hangUp(page)).ok()).toBe(true);
    await page.getByRole("button", { name: "Close" }).click();

    // The chat shows the call in place, its transcript folded in.
    await page.goto(`${server.url}/dashboard/chat`);
    const entry = page.getByTestId("call-entry").first();
    await entry.getByText(/^Voice call · \d+ min$/).waitFor({ timeout: 15_000 });
    const turns = entry.getByTestId("call-turn");
    expect(await turns.first().isVisible()).toBe(false);
    await entry.getByText(/^Voice call/).click();
    await turns.first().waitFor();
    // The product's AI notice opened the call (decision 0058), then the fan and the persona.
    expect(await turns.first().textContent()).toMatch(
      /^AI notice: .* is an AI and not a human being/,
    );
    expect(await turns.nth(1).textContent()).toBe(`You: ${HEARD}`);
    expect(await turns.nth(2).textContent()).toContain(REPLY[0]);

    // The call history's row opens the same transcript.
    await page.goto(`${server.url}/dashboard/call-history`);
    await page
      .getByRole("button", { name: /^View the transcript of the call of / })
      .first()
      .click();
    const dialog = page.getByTestId("call-transcript-dialog");
    await dialog.getByText(HEARD).waitFor();
    await dialog
      .getByText(REPLY[0] ?? "")
      .first()
      .waitFor();
    await page.keyboard.press("Escape");

    // The profile lists what was told, and the fan can erase it (on a phone, 360×740).
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${server.url}/dashboard/profile`);
    await page.getByRole("heading", { name: /^What .+ remembers$/ }).waitFor();
    const fact = page.getByTestId("memory-fact").filter({ hasText: HEARD }).first();
    await fact.waitFor();
    await fact.getByRole("button", { name: `Forget: ${HEARD}` }).click();
    await expect
      .poll(() => page.getByTestId("memory-fact").filter({ hasText: HEARD }).count())
      .toBe(0);
    const memorySwitch = page.getByRole("switch", { name: /remember me/ });
    expect(await memorySwitch.isChecked()).toBe(true);
    // The switch itself takes the click (its drawing once covered it: issue 24).
    await memorySwitch.click();
    await expect.poll(() => memorySwitch.isChecked()).toBe(false);
  });
});
