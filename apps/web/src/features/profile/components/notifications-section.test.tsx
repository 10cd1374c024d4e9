import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { PUSH_TEXT, routes } from "@twinline/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockApi, on } from "@/test/api-mock";
import { storeSession } from "@/test/auth";
import { testQueryClient } from "@/test/render";
import { NotificationsSection } from "./notifications-section";

// The fan's notifications (issue 27 item 3) over routes.push, answered by msw. jsdom has no
// Web Push: the browser's side (permission, service worker, PushManager) is played here.

const subscriptionJson = {
  endpoint: "https://push.example.com/send/abc",
  expirationTime: null,
  keys: { p256dh: "p256dh-key", auth: "auth-key" },
};

function browserWithPush() {
  const made = {
    endpoint: subscriptionJson.endpoint,
    toJSON: () => subscriptionJson,
    unsubscribe: vi.fn(async () => true),
  };
  const pushManager = {
    getSubscription: vi.fn(async () => null),
    subscribe: vi.fn(async () => made),
  };
  const registration = { pushManager };
  vi.stubGlobal("PushManager", class {});
  vi.stubGlobal(
    "Notification",
    Object.assign(class {}, { permission: "default", requestPermission: async () => "granted" }),
  );
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: { getRegistration: async () => registration, ready: Promise.resolve(registration) },
  });
  return { pushManager };
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "serviceWorker");
});

const state = {
  success: true as const,
  data: {
    publicKey: "BPublicKey",
    preferences: { reply: true, lowBalance: false, renewalFailed: true },
    devices: 0,
  },
};

describe("notifications section", () => {
  it("saves a choice and turns notifications on for this browser with the fan's token", async () => {
    storeSession();
    const { pushManager } = browserWithPush();
    const api = mockApi([
      on(routes.push.state, state),
      on(routes.push.preferences, ({ body }) => ({
        success: true as const,
        message: "Notification preferences updated",
        data: body as typeof state.data.preferences,
      })),
      on(routes.push.subscribe, { success: true as const, message: "Notifications turned on" }),
    ]);
    render(
      <QueryClientProvider client={testQueryClient()}>
        <NotificationsSection />
      </QueryClientProvider>,
    );

    const lowBalance = await screen.findByRole("switch", { name: PUSH_TEXT.kinds.lowBalance });
    expect(lowBalance).not.toBeChecked();
    await userEvent.click(lowBalance);
    await waitFor(() => expect(api.callsTo(routes.push.preferences)).toHaveLength(1));
    expect(api.callsTo(routes.push.preferences)[0]?.body).toEqual({
      reply: true,
      lowBalance: true,
      renewalFailed: true,
    });

    await userEvent.click(screen.getByRole("button", { name: PUSH_TEXT.enable }));
    expect(await screen.findByRole("status")).toHaveTextContent(PUSH_TEXT.enabled);
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
    const [saved] = api.callsTo(routes.push.subscribe);
    expect(saved?.body).toEqual(subscriptionJson);
    expect(saved?.headers.get("authorization")).toBe("Bearer user-token");
  });
});
