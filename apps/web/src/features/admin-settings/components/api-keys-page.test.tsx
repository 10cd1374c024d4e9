import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type AdminSettings, defaultPublicSettings, routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { mockAdminApi, signInAdmin } from "@/test/admin";
import { on, type RouteMock, reply } from "@/test/api-mock";
import { renderApp } from "@/test/render";
import { adminSettings, MASKED_OPENAI, settingsRoute } from "../test/fixtures";

// The first render loads the lazy admin bundle; give slow, shared machines time.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  toast.remove();
});

/** The LLM and speech to text on OpenAI: a key is set. */
const OPENAI_PROVIDERS: AdminSettings["providers"] = {
  llm: "openai",
  stt: "openai",
  tts: "offline",
  payments: "sandbox",
};

function keysApi(mocks: RouteMock[] = []) {
  return mockAdminApi([...mocks, settingsRoute(adminSettings({ providers: OPENAI_PROVIDERS }))]);
}

async function openPage() {
  signInAdmin();
  renderApp("/admin/api-keys");
  await screen.findByRole("heading", { name: "API Configuration" });
  return userEvent.setup();
}

describe("API Configuration", () => {
  it("says speech to text runs offline with pocketsphinx when the server has it", async () => {
    mockAdminApi([
      on(routes.settings.admin, {
        success: true,
        data: adminSettings({
          providers: { llm: "offline", stt: "pocketsphinx", tts: "offline", payments: "sandbox" },
        }),
      }),
    ]);
    await openPage();
    const stt = await screen.findByTestId("provider-mode-stt");
    expect(stt).toHaveTextContent("Speech to text");
    expect(stt).toHaveTextContent("Offline (pocketsphinx)");
    expect(stt).toHaveTextContent("roughly");
  });

  it("shows the masked key, which providers run offline, and enables a test only once a key is entered", async () => {
    const api = keysApi();
    const user = await openPage();
    expect(await screen.findByLabelText("OpenAI API Key")).toHaveValue(MASKED_OPENAI);
    expect(screen.getByText(/A key is stored \(sk-••••••••abcd\)/)).toBeInTheDocument();
    expect(screen.getByTestId("provider-mode-llm")).toHaveTextContent("Live");
    expect(screen.getByTestId("provider-mode-tts")).toHaveTextContent("Offline");
    expect(screen.getByTestId("provider-mode-tts")).toHaveTextContent("Offline speech synthesiser");
    expect(screen.getByTestId("provider-mode-payments")).toHaveTextContent("Sandbox checkout");

    expect(screen.getByRole("button", { name: "Test OpenAI Key" })).toBeEnabled();
    const stripeTest = screen.getByRole("button", { name: "Test Stripe Key" });
    const voiceTest = screen.getByRole("button", { name: "Test ElevenLabs Key" });
    expect(stripeTest).toBeDisabled();
    expect(voiceTest).toBeDisabled();
    await user.type(screen.getByLabelText("ElevenLabs API Key"), "   ");
    expect(voiceTest).toBeDisabled();
    await user.type(screen.getByLabelText("ElevenLabs API Key"), "el-key");
    expect(voiceTest).toBeEnabled();
    expect(api.callsTo(routes.settings.admin)[0]?.headers.get("authorization")).toBe(
      "Bearer admin-token",
    );
  });

  it("a stored key that failed its last test shows that, not Live", async () => {
    keysApi([
      settingsRoute(
        adminSettings({
          providers: OPENAI_PROVIDERS,
          keyTests: {
            openai: {
              ok: false,
              message: "Incorrect API key provided: [redacted].",
              testedAt: "2026-11-26T10:00:00.000Z",
            },
            stripe: null,
            elevenLabs: null,
          },
        }),
      ),
    ]);
    await openPage();
    const llm = await screen.findByTestId("provider-mode-llm");
    expect(llm).toHaveTextContent("Test failed");
    expect(llm).not.toHaveTextContent("Live");
    expect(llm).toHaveTextContent(
      "The key in use failed its last test: Incorrect API key provided: [redacted].",
    );
    expect(screen.getByTestId("provider-mode-stt")).toHaveTextContent("Test failed");
    expect(screen.getByTestId("provider-mode-payments")).toHaveTextContent("Sandbox checkout");
  });

  it("shows the spec's validation messages and the toast, and sends nothing", async () => {
    const api = keysApi();
    const user = await openPage();
    const openai = await screen.findByLabelText("OpenAI API Key");
    await user.clear(openai);
    await user.type(openai, "abc");
    await user.type(screen.getByLabelText("Stripe Secret Key"), "pk_wrong");
    await user.type(screen.getByLabelText("Stripe Publishable Key"), "sk_wrong");
    const credits = screen.getByLabelText("Credits per Minute");
    await user.clear(credits);
    await user.type(credits, "0");
    await user.click(screen.getByRole("button", { name: "Save Configuration" }));

    expect(await screen.findByText("Please fix the validation errors")).toBeInTheDocument();
    expect(screen.getByText('OpenAI API key should start with "sk-"')).toBeInTheDocument();
    expect(screen.getByText('Stripe secret key should start with "sk_"')).toBeInTheDocument();
    expect(screen.getByText('Stripe publishable key should start with "pk_"')).toBeInTheDocument();
    expect(screen.getByText("Credit cost must be at least 1")).toBeInTheDocument();
    expect(openai).toHaveFocus();
    expect(api.callsTo(routes.settings.save)).toHaveLength(0);

    // Messages follow the typing after the first submit.
    await user.clear(openai);
    await user.type(openai, "sk-good");
    expect(screen.queryByText('OpenAI API key should start with "sk-"')).not.toBeInTheDocument();
  });

  it("saves the full settings with the admin token, sending the masked key back unchanged", async () => {
    const saved = adminSettings({ providers: OPENAI_PROVIDERS, creditsPerMinute: 7 });
    const api = keysApi([
      on(routes.settings.save, { success: true, message: "Settings updated", data: saved }),
    ]);
    const user = await openPage();
    const credits = await screen.findByLabelText("Credits per Minute");
    await user.clear(credits);
    await user.type(credits, "7");
    await user.type(screen.getByLabelText("Stripe Secret Key"), "sk_test_123");
    await user.click(screen.getByRole("button", { name: "Save Configuration" }));

    expect(await screen.findByText("API configuration saved successfully")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Saved" })).toBeInTheDocument();
    const [put] = api.callsTo(routes.settings.save);
    expect(put?.headers.get("authorization")).toBe("Bearer admin-token");
    expect(put?.headers.get("csrf-token")).toBe("csrf-1");
    expect(put?.body).toMatchObject({
      creditsPerMinute: 7,
      apiKeys: {
        openai: MASKED_OPENAI,
        stripe: { secret: "sk_test_123", publishable: "" },
        elevenLabs: "",
      },
      aiProfile: defaultPublicSettings.aiProfile,
      socialMediaProfiles: defaultPublicSettings.socialMediaProfiles,
    });
    expect(put?.body).not.toHaveProperty("providers");
    // The public settings are fetched again so the user side shows the change.
    await waitFor(() => expect(api.callsTo(routes.settings.public).length).toBeGreaterThan(1));
  });

  it("keeps what was typed when the save fails, with the spec's message and the server's reason", async () => {
    keysApi([
      on(routes.settings.save, () =>
        reply({ success: false, message: "apiKeys.openai: key is not valid" }, 400),
      ),
    ]);
    const user = await openPage();
    const openai = await screen.findByLabelText("OpenAI API Key");
    await user.clear(openai);
    await user.type(openai, "sk-typed-key");
    await user.click(screen.getByRole("button", { name: "Save Configuration" }));
    expect(await screen.findByText("Failed to save API configuration")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("apiKeys.openai: key is not valid");
    expect(openai).toHaveValue("sk-typed-key");
  });

  it("tests keys: the models list, the voices list, and a failure with the provider's message", async () => {
    const api = keysApi([
      on(routes.settings.testOpenAi, {
        success: true,
        message: "OpenAI API key is valid",
        data: { availableModels: ["gpt-4o-mini", "whisper-1"] },
      }),
      on(routes.settings.testElevenLabs, {
        success: true,
        message: "ElevenLabs API key is valid",
        data: { availableVoices: [{ voice_id: "v-1", name: "Rachel" }] },
      }),
      on(routes.settings.testStripe, () =>
        reply({ success: false, message: "Invalid API Key provided: sk_test_***" }, 400),
      ),
    ]);
    const user = await openPage();
    await user.click(await screen.findByRole("button", { name: "Test OpenAI Key" }));
    const models = await screen.findByRole("list", { name: "Available models (2)" });
    expect(within(models).getByText("gpt-4o-mini")).toBeInTheDocument();
    expect(within(models).getByText("whisper-1")).toBeInTheDocument();
    // A masked key asks the server to test the stored one.
    expect(api.callsTo(routes.settings.testOpenAi)[0]?.body).toEqual({
      apiKey: MASKED_OPENAI,
    });
    expect(api.callsTo(routes.settings.testOpenAi)[0]?.headers.get("authorization")).toBe(
      "Bearer admin-token",
    );

    await user.type(screen.getByLabelText("ElevenLabs API Key"), "el-key");
    await user.click(screen.getByRole("button", { name: "Test ElevenLabs Key" }));
    const voices = await screen.findByRole("list", { name: "Available voices (1)" });
    expect(within(voices).getByText("Rachel")).toBeInTheDocument();
    expect(api.callsTo(routes.settings.testElevenLabs)[0]?.body).toEqual({
      apiKey: "el-key",
    });

    await user.type(screen.getByLabelText("Stripe Secret Key"), "sk_test_bad");
    await user.click(screen.getByRole("button", { name: "Test Stripe Key" }));
    const failure = "Stripe API key test failed: Invalid API Key provided: sk_test_***";
    expect(await screen.findByTestId("test-result-stripe")).toHaveTextContent(failure);
    expect(screen.getAllByText(failure).length).toBeGreaterThanOrEqual(2); // the result and the toast

    // Editing the key clears its old result.
    await user.type(screen.getByLabelText("Stripe Secret Key"), "x");
    expect(screen.queryByTestId("test-result-stripe")).not.toBeInTheDocument();
  });

  it("shows the load error with Try again", async () => {
    mockAdminApi([
      on(routes.settings.admin, () => reply({ success: false, message: "Boom" }, 500)),
    ]);
    signInAdmin();
    renderApp("/admin/api-keys");
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load API configuration");
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});
