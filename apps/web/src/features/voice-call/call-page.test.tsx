import { act, configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { defaultPublicSettings, routes, voiceSocketAddress } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type MockResolver, mockApi, on } from "@/test/api-mock";
import { jsonResponse, makeUser, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";
import type { CallDeps, MicrophoneHandlers, PlayerHandlers, SocketLike } from "./call/call-session";
import { CallPage } from "./components/call-page";

configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  toast.remove();
});

const credits = (credits: number, patch: object = {}) => ({
  success: true,
  credits,
  creditsPerMinute: 5,
  hasCredits: credits >= 5,
  voiceEnabled: true,
  ...patch,
});

type Answer = MockResolver | object;

/** The call page's calls through msw: the account (routes.auth) and the call (routes.voice). */
function callApi(answers: { credits?: Answer; end?: Answer; settings?: unknown } = {}) {
  storeSession();
  return mockApi(
    [
      on(routes.auth.me, { success: true, data: makeUser() }),
      on(routes.voice.checkCredits, (answers.credits ?? credits(50)) as never),
      ...(answers.end ? [on(routes.voice.end, answers.end as never)] : []),
    ],
    { settings: answers.settings ?? defaultPublicSettings },
  );
}

/** A socket, microphone and player standing in for the browser's (see call-session tests). */
function fakeDevices() {
  const sockets: (SocketLike & {
    url: string;
    open(): void;
    receive(m: object): void;
    sent: unknown[];
  })[] = [];
  let mic!: MicrophoneHandlers;
  const makeDeps = (csrf: string | null): CallDeps => ({
    socketUrl: () => `ws://test${voiceSocketAddress.path}?csrf=${csrf}`,
    createSocket: (url) => {
      const socket = {
        url,
        binaryType: "blob" as BinaryType,
        readyState: 0,
        onopen: null as SocketLike["onopen"],
        onclose: null as SocketLike["onclose"],
        onerror: null as SocketLike["onerror"],
        onmessage: null as SocketLike["onmessage"],
        sent: [] as unknown[],
        send(data: unknown) {
          this.sent.push(data);
        },
        close() {
          this.readyState = 3;
        },
        open() {
          this.readyState = 1;
          this.onopen?.(new Event("open"));
        },
        receive(message: object) {
          this.onmessage?.({ data: JSON.stringify(message) });
        },
      };
      sockets.push(socket);
      return socket;
    },
    supportsWebSocket: () => true,
    openMicrophone: async (handlers) => {
      mic = handlers;
      return { setMuted: vi.fn(), setPersonaSpeaking: vi.fn(), setBargeIn: vi.fn(), stop: vi.fn() };
    },
    createPlayer: (handlers: PlayerHandlers) => ({
      // The persona's audio "plays" as soon as a frame is queued.
      play: vi.fn(() => handlers.onPlaying(true)),
      stop: vi.fn(),
      close: vi.fn(),
    }),
    reportEnd: async (duration) => {
      const { endCall } = await import("./api/voice-call");
      return endCall(duration);
    },
    notifyError: (message) => toast.error(message),
    notifyWarning: (message) => toast(message),
  });
  return { makeDeps, sockets, mic: () => mic };
}

function renderCall(deps = fakeDevices()) {
  const utils = renderApp("/call-test", [
    { path: "call-test", element: <CallPage makeDeps={deps.makeDeps} /> },
    { path: "auth", element: <p>Login page</p> },
    { path: "/", element: <p>Landing</p> },
  ]);
  return { ...utils, deps };
}

describe("call start screen", () => {
  it("shows the persona, the credits with their rate, and Start call", async () => {
    callApi();
    renderApp("/dashboard/call");
    expect(await screen.findByTestId("call-credits")).toHaveTextContent(
      "50 credits · 5 per minute",
    );
    expect(
      screen.getByRole("heading", { name: defaultPublicSettings.aiProfile.name }),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Start call" })).toBeEnabled();
  });

  it("refreshes the credits on demand", async () => {
    let balance = 50;
    const api = callApi({
      credits: () => jsonResponse(credits(balance)),
    });
    renderCall();
    expect(await screen.findByTestId("call-credits")).toHaveTextContent("50 credits");
    balance = 35;
    await userEvent.click(screen.getByRole("button", { name: "Refresh credits" }));
    await waitFor(() => expect(screen.getByTestId("call-credits")).toHaveTextContent("35 credits"));
    expect(api.callsTo(routes.voice.checkCredits)).toHaveLength(2);
  });

  it("says how many credits are needed when there are too few, and cannot start", async () => {
    callApi({ credits: credits(3) });
    renderCall();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Not enough credits to start a call");
    expect(alert).toHaveTextContent(
      "You need at least 5 credits to start a call. You currently have 3 credits.",
    );
    expect(within(alert).getByRole("link", { name: "Buy credits" })).toHaveAttribute(
      "href",
      "/dashboard/credits",
    );
    expect(screen.getByRole("button", { name: "Start call" })).toBeDisabled();
  });

  it("says voice calls are off when the settings turn them off", async () => {
    callApi({
      settings: {
        ...defaultPublicSettings,
        aiProfile: { ...defaultPublicSettings.aiProfile, enableVoiceConversation: false },
      },
    });
    renderCall();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Voice calls are turned off at the moment",
    );
    expect(screen.getByRole("button", { name: "Start call" })).toBeDisabled();
  });

  it("a failed credit check says so, and Try again asks again", async () => {
    let fail = true;
    callApi({
      credits: () =>
        fail ? jsonResponse({ success: false, message: "boom" }, 500) : jsonResponse(credits(20)),
    });
    renderCall();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Failed to check credits. Please try again.",
    );
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByTestId("call-credits")).toHaveTextContent("20 credits");
  });

  it("a 401 on the credit check ends the session and goes to the login", async () => {
    callApi({
      credits: () => jsonResponse({ success: false, message: "Unauthorized" }, 401),
    });
    const { router } = renderCall();
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth"));
    expect(localStorage.getItem("userToken")).toBeNull();
    expect(
      await screen.findByText("Your session has expired. Please log in again."),
    ).toBeInTheDocument();
  });
});

describe("call overlay", () => {
  it("a socket refusing the token (4401) ends the session and goes to the login", async () => {
    callApi();
    const { deps, router } = renderCall();
    await userEvent.click(await screen.findByRole("button", { name: "Start call" }));
    await waitFor(() => expect(deps.sockets).toHaveLength(1));
    const socket = deps.sockets[0] as (typeof deps.sockets)[number];
    await act(async () => {
      socket.open();
      socket.receive({ type: "error", message: "Your session has expired. Please log in again." });
      socket.onclose?.({ code: 4401, reason: "" });
    });
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth"));
    expect(localStorage.getItem("userToken")).toBeNull();
    expect(
      await screen.findByText("Your session has expired. Please log in again."),
    ).toBeInTheDocument();
    expect(deps.sockets).toHaveLength(1);
  });

  it("a dropped connection shows Reconnecting…, then the same call goes on", async () => {
    callApi();
    const { deps } = renderCall();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Start call" }));
    await waitFor(() => expect(deps.sockets).toHaveLength(1));
    const started = {
      type: "call_started",
      callId: "c1",
      creditsPerMinute: 5,
      creditsRemaining: 45,
      stt: "openai",
      tts: "offline",
    };
    const first = deps.sockets[0] as (typeof deps.sockets)[number];
    await act(async () => {
      first.open();
      first.receive(started);
    });
    expect(screen.getByTestId("call-status")).toHaveTextContent("Connected");
    await act(async () => {
      first.onclose?.({ code: 1006, reason: "" });
    });
    expect(screen.getByTestId("call-status")).toHaveTextContent("Reconnecting…");
    await waitFor(() => expect(deps.sockets).toHaveLength(2));
    const second = deps.sockets[1] as (typeof deps.sockets)[number];
    expect(new URL(second.url).searchParams.get("resume")).toBe("c1");
    await act(async () => {
      second.open();
      second.receive({ ...started, resumed: true });
    });
    expect(screen.getByTestId("call-status")).toHaveTextContent("Connected");
    expect(screen.getByTestId("call-remaining")).toHaveTextContent("45 credits");
  });

  it("places a call, shows what was heard and answered, hangs up and closes the record", async () => {
    const api = callApi({
      end: {
        success: true,
        call: {
          _id: "c1",
          createdAt: "2026-01-01T00:00:00.000Z",
          startTime: "2026-01-01T00:00:00.000Z",
          endTime: "2026-01-01T00:00:05.000Z",
          duration: 5,
          creditsConsumed: 5,
        },
      },
    });
    const { deps } = renderCall();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Start call" }));

    const overlay = await screen.findByRole("dialog", { name: /^Call with / });
    expect(screen.getByTestId("call-status")).toHaveTextContent("Connecting…");
    // The persona's voice is labelled as synthetic for the whole call (issue 25).
    expect(within(overlay).getByText("AI-generated voice")).toBeVisible();
    await waitFor(() => expect(deps.sockets).toHaveLength(1));
    const socket = deps.sockets[0] as (typeof deps.sockets)[number];
    await act(async () => {
      socket.open();
    });
    await act(async () => {
      socket.receive({
        type: "call_started",
        callId: "c1",
        creditsPerMinute: 5,
        creditsRemaining: 45,
        stt: "openai",
        tts: "offline",
      });
    });
    expect(screen.getByTestId("call-status")).toHaveTextContent("Connected");
    expect(screen.getByTestId("call-remaining")).toHaveTextContent("About 10:00 left · 45 credits");
    expect(screen.getByTestId("call-speaker")).toHaveTextContent("Listening…");
    expect(screen.getByRole("button", { name: "Hang up" })).toHaveFocus();

    act(() => deps.mic().onSpeech(true));
    expect(screen.getByTestId("call-speaker")).toHaveTextContent("You are speaking");
    act(() => deps.mic().onSpeech(false));
    await act(async () => {
      socket.receive({ type: "transcription", text: "How are you today?" });
      socket.receive({ type: "response", text: "I am great, thanks for calling!", replyId: "r1" });
    });
    // The persona's words show as they are spoken: once its audio plays.
    expect(within(overlay).queryByTestId("call-response")).not.toBeInTheDocument();
    await act(async () => {
      socket.receive({ type: "audio_start", replyId: "r1", format: "audio/wav" });
      socket.onmessage?.({ data: new ArrayBuffer(2000) });
    });
    expect(within(overlay).getByTestId("call-transcript")).toHaveTextContent("How are you today?");
    expect(within(overlay).getByTestId("call-response")).toHaveTextContent(
      "I am great, thanks for calling!",
    );

    await user.click(screen.getByRole("button", { name: "Mute microphone" }));
    expect(screen.getByRole("button", { name: "Unmute microphone" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );

    await act(async () => {
      socket.receive({
        type: "credit_warning",
        message: "Credits are running low",
        creditsRemaining: 5,
      });
    });
    expect(await screen.findAllByText("Credits are running low")).not.toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Hang up" }));
    expect(screen.getByTestId("call-status")).toHaveTextContent("Call ended");
    expect(socket.sent).toContainEqual(JSON.stringify({ type: "end" }));
    await waitFor(() => expect(api.callsTo(routes.voice.end)).toHaveLength(1), {
      timeout: 4000,
    });
    // The whole seconds the call lasted (a moment in this test).
    const [report] = api.callsTo(routes.voice.end);
    const duration = (report?.body as { duration?: number } | undefined)?.duration;
    expect(Number.isInteger(duration)).toBe(true);
    expect(duration).toBeLessThan(10);

    await user.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    // Focus back on what opened the call, not dropped on the body (issue 24).
    expect(screen.getByRole("button", { name: "Start call" })).toHaveFocus();
  });

  it("says plainly when speech is not transcribed (offline STT)", async () => {
    callApi();
    const { deps } = renderCall();
    await userEvent.click(await screen.findByRole("button", { name: "Start call" }));
    await waitFor(() => expect(deps.sockets).toHaveLength(1));
    const socket = deps.sockets[0] as (typeof deps.sockets)[number];
    await act(async () => {
      socket.open();
    });
    await act(async () => {
      socket.receive({
        type: "call_started",
        callId: "c1",
        creditsPerMinute: 5,
        creditsRemaining: 45,
        stt: "offline",
        tts: "offline",
      });
    });
    await act(async () => {
      socket.receive({
        type: "transcription",
        text: "Speech is not transcribed offline: no speech-to-text key is set",
        offline: true,
      });
    });
    const transcript = screen.getByTestId("call-transcript");
    expect(transcript).toHaveAttribute("data-offline", "true");
    expect(transcript).toHaveTextContent("Speech is not transcribed offline");
  });

  it("says plainly that offline recognition (pocketsphinx) is rough", async () => {
    callApi();
    const { deps } = renderCall();
    await userEvent.click(await screen.findByRole("button", { name: "Start call" }));
    await waitFor(() => expect(deps.sockets).toHaveLength(1));
    const socket = deps.sockets[0] as (typeof deps.sockets)[number];
    await act(async () => {
      socket.open();
      socket.receive({
        type: "call_started",
        callId: "c1",
        creditsPerMinute: 5,
        creditsRemaining: 45,
        stt: "pocketsphinx",
        tts: "offline",
      });
    });
    expect(screen.getByTestId("call-rough-stt")).toHaveTextContent(
      "Speech is recognised offline on this server: it is rough, so some words may be misheard.",
    );
  });

  it("shows the server's refusal of the call", async () => {
    callApi();
    const { deps } = renderCall();
    await userEvent.click(await screen.findByRole("button", { name: "Start call" }));
    await waitFor(() => expect(deps.sockets).toHaveLength(1));
    const socket = deps.sockets[0] as (typeof deps.sockets)[number];
    await act(async () => {
      socket.open();
    });
    await act(async () => {
      socket.receive({ type: "error", message: "Insufficient credits for voice call" });
      socket.onclose?.({ code: 4402, reason: "" });
    });
    expect(screen.getByTestId("call-status")).toHaveTextContent("Call failed");
    expect(screen.getByTestId("call-end-message")).toHaveTextContent(
      "Insufficient credits for voice call",
    );
  });
});
