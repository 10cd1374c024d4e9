import {
  EMBED_TRIAL_DEVICE_MESSAGE,
  EMBED_TRIAL_READY_MESSAGE,
  routes,
  TRIAL_DEVICE_HEADER,
} from "@twinline/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callRoute } from "@/lib/api-client";
import { readStorage } from "@/lib/storage";
import {
  carryTrialDevice,
  currentTrialDevice,
  stopCarryingTrialDevice,
  TRIAL_DEVICE_KEY,
  trialDeviceHeader,
} from "@/lib/trial-device";
import { mockApi, on } from "@/test/api-mock";
import {
  answerTrialDeviceRequest,
  openSignInPopup,
  receiveTrialDevice,
  trialDeviceFromMessage,
} from "./session-handoff";

/** The frame's trial device goes to its sign-in popup, and only there (decision 0089). */

const DEVICE = "AbCdEfGhIjKlMnOpQrStUvWx.signature-of-the-server";

const fakeWindow = () =>
  ({ postMessage: vi.fn(), closed: false }) as unknown as Window & {
    postMessage: ReturnType<typeof vi.fn>;
  };

const event = (data: unknown, source: unknown, origin = window.location.origin) =>
  ({ data, source, origin }) as MessageEvent;

afterEach(() => {
  vi.restoreAllMocks();
  Object.defineProperty(window, "opener", { value: null, configurable: true });
  stopCarryingTrialDevice();
});

describe("the frame's side", () => {
  it("posts its device to the popup it opened, naming its own origin as the only receiver", () => {
    carryTrialDevice({ persist: true, device: DEVICE });
    const popup = fakeWindow();
    const listeners: ((e: MessageEvent) => void)[] = [];
    vi.spyOn(window, "open").mockReturnValue(popup);
    vi.spyOn(window, "addEventListener").mockImplementation((type, listener) => {
      if (type === "message") listeners.push(listener as (e: MessageEvent) => void);
    });
    openSignInPopup("signup", vi.fn());
    for (const listener of listeners) {
      listener(event({ type: EMBED_TRIAL_READY_MESSAGE }, popup));
    }
    expect(popup.postMessage).toHaveBeenCalledWith(
      { type: EMBED_TRIAL_DEVICE_MESSAGE, device: DEVICE },
      window.location.origin,
    );
  });

  it("answers no one else: another origin, another window, another message, or no device", () => {
    const popup = fakeWindow();
    carryTrialDevice({ persist: true, device: DEVICE });
    const ready = { type: EMBED_TRIAL_READY_MESSAGE };
    expect(answerTrialDeviceRequest(event(ready, popup, "https://host.example"), popup)).toBe(
      false,
    );
    expect(answerTrialDeviceRequest(event(ready, fakeWindow()), popup)).toBe(false);
    expect(answerTrialDeviceRequest(event({ type: "other" }, popup), popup)).toBe(false);
    expect(popup.postMessage).not.toHaveBeenCalled();
    stopCarryingTrialDevice();
    carryTrialDevice({ persist: true });
    expect(answerTrialDeviceRequest(event(ready, popup), popup)).toBe(false);
    expect(popup.postMessage).not.toHaveBeenCalled();
  });

  it("keeps the device the server gives, in storage or, when storage throws, in memory", async () => {
    vi.spyOn(window, "localStorage", "get").mockImplementation(() => {
      throw new DOMException("Access is denied for this document.", "SecurityError");
    });
    carryTrialDevice({ persist: true });
    const state = { success: true, data: { allowance: 3, remaining: 3, messages: [] } };
    const mocked = mockApi([
      on(
        routes.trial.state,
        () =>
          new Response(JSON.stringify(state), {
            headers: { "content-type": "application/json", [TRIAL_DEVICE_HEADER]: DEVICE },
          }),
      ),
    ]);
    await callRoute(routes.trial.state);
    await callRoute(routes.trial.state);
    // The first call says it has no device yet; the next carries the one given.
    const sent = mocked
      .callsTo(routes.trial.state)
      .map((call) => call.headers.get(TRIAL_DEVICE_HEADER));
    expect(sent).toEqual(["new", DEVICE]);
    expect(readStorage(TRIAL_DEVICE_KEY)).toBe(DEVICE);
  });

  it("carries no device header unless the page asked to (the landing page's cookie)", () => {
    expect(trialDeviceHeader()).toBeNull();
  });
});

describe("the popup's side", () => {
  it("asks its opener on this origin, takes the device only from it, and sends it with its calls", () => {
    const opener = fakeWindow();
    Object.defineProperty(window, "opener", { value: opener, configurable: true });
    const listeners: ((e: MessageEvent) => void)[] = [];
    vi.spyOn(window, "addEventListener").mockImplementation((type, listener) => {
      if (type === "message") listeners.push(listener as (e: MessageEvent) => void);
    });
    receiveTrialDevice();
    expect(opener.postMessage).toHaveBeenCalledWith(
      { type: EMBED_TRIAL_READY_MESSAGE },
      window.location.origin,
    );
    const message = { type: EMBED_TRIAL_DEVICE_MESSAGE, device: DEVICE };
    for (const listener of listeners) {
      listener(event({ ...message, device: "from-elsewhere" }, opener, "https://evil.example"));
      listener(event({ ...message, device: "from-another-window" }, fakeWindow()));
    }
    expect(currentTrialDevice()).toBeNull();
    for (const listener of listeners) listener(event(message, opener));
    expect(trialDeviceHeader()).toEqual([TRIAL_DEVICE_HEADER, DEVICE]);
    // Memory only: the popup is first-party; its storage is not the frame's.
    expect(readStorage(TRIAL_DEVICE_KEY)).toBeNull();
  });

  it("refuses malformed device messages", () => {
    const opener = fakeWindow();
    const type = EMBED_TRIAL_DEVICE_MESSAGE;
    expect(trialDeviceFromMessage(event({ type, device: 42 }, opener), opener)).toBeNull();
    expect(trialDeviceFromMessage(event({ type, device: "" }, opener), opener)).toBeNull();
    expect(
      trialDeviceFromMessage(event({ type, device: "x".repeat(500) }, opener), opener),
    ).toBeNull();
    expect(trialDeviceFromMessage(event(null, opener), opener)).toBeNull();
    expect(trialDeviceFromMessage(event({ type, device: DEVICE }, opener), opener)).toBe(DEVICE);
  });
});
