import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type AdminSettings, AGE_MESSAGES, routes, SITE_PAGES } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockAdminApi, signInAdmin } from "@/test/admin";
import { on, type RouteMock, reply } from "@/test/api-mock";
import { renderApp } from "@/test/render";
import { adminSettings, MASKED_OPENAI, OFFLINE_PROVIDERS, settingsRoute } from "../test/fixtures";

configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  toast.remove();
});

const SITE_PAGES_ANSWER = SITE_PAGES.map(({ slug, title }) => ({
  slug,
  title,
  content: `Built-in ${title} for {{persona}}`,
  isDefault: true,
}));

function settingsApi(mocks: RouteMock[] = []) {
  return mockAdminApi([
    ...mocks,
    settingsRoute(adminSettings()),
    on(routes.sitePages.adminList, { success: true, data: SITE_PAGES_ANSWER }),
  ]);
}

/** PUT /api/settings answering with what was sent, as the server saves it. */
const echoSave = on(routes.settings.save, ({ body }) => ({
  success: true as const,
  message: "Settings updated",
  // The server answers the snippet's address with every settings answer; the body has none.
  data: {
    ...(body as AdminSettings),
    providers: OFFLINE_PROVIDERS,
    embedScriptUrl: adminSettings().embedScriptUrl,
  },
}));

async function openPage(options: Parameters<typeof userEvent.setup>[0] = {}) {
  signInAdmin();
  renderApp("/admin/Settings");
  await screen.findByRole("heading", { name: "General Settings" });
  return userEvent.setup(options);
}

function png(name = "logo.png") {
  return new File([new Uint8Array([137, 80, 78, 71])], name, { type: "image/png" });
}

describe("Settings", () => {
  it("edits a site page in the Pages section and saves its markdown", async () => {
    const api = settingsApi([
      on(routes.sitePages.adminSave, ({ body }) => ({
        success: true as const,
        message: "Page saved",
        data: {
          slug: "refunds" as const,
          title: "Refund Policy",
          content: (body as { content: string }).content,
          isDefault: false,
        },
      })),
    ]);
    const user = await openPage();
    const pages = await screen.findByRole("region", { name: "Pages" });
    await user.selectOptions(within(pages).getByLabelText("Page"), "refunds");
    const editor = within(pages).getByLabelText("Refund Policy (markdown)");
    expect(editor).toHaveValue("Built-in Refund Policy for {{persona}}");
    await user.clear(editor);
    await user.type(editor, "No refunds on Sundays");
    await user.click(within(pages).getByRole("button", { name: "Save Page" }));
    const saved = () => api.callsTo(routes.sitePages.adminSave, { slug: "refunds" });
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]?.body).toEqual({ content: "No refunds on Sundays" });
    expect(await screen.findByText("Page saved")).toBeInTheDocument();
  });

  it("shows the four sections, the favicon hint and social links as URL inputs", async () => {
    settingsApi();
    await openPage();
    for (const title of [
      "General Settings",
      "Logo Settings",
      "AI Profile Settings",
      "Social Media Profiles",
    ]) {
      expect(screen.getByRole("heading", { name: title })).toBeInTheDocument();
    }
    expect(screen.getByText(/32x32 or 16x16 recommended/)).toBeInTheDocument();
    expect(screen.getByTestId("image-input-favicon")).toHaveAttribute(
      "accept",
      expect.stringContaining(".ico,.png,.svg"),
    );
    expect(screen.getByLabelText("Instagram")).toHaveAttribute("type", "url");
    expect(screen.getByLabelText("AI Name")).toHaveValue("AI Celebrity Assistant");
    expect(screen.getByLabelText("Default Credits")).toHaveValue(100);
    expect(screen.getByTestId("provider-mode-llm")).toHaveTextContent("Offline responder");
  });

  it("shows the snippet from PUBLIC_URL and refuses an embed origin that is not https, naming the field", async () => {
    const api = settingsApi([echoSave]);
    const user = await openPage();
    expect(screen.getByTestId("embed-snippet")).toHaveTextContent(
      '<script src="http://localhost:3000/embed.js" async></script>',
    );
    const origins = screen.getByLabelText("Allowed Sites");
    await user.type(origins, "http://creator.example");
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText(/^Embed origins: each must be an origin/)).toBeInTheDocument();
    expect(api.callsTo(routes.settings.save)).toHaveLength(0);

    await user.clear(origins);
    await user.type(origins, "https://creator.example{Enter}http://localhost:4000");
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText("Settings saved successfully!")).toBeInTheDocument();
    expect(api.callsTo(routes.settings.save)[0]?.body).toMatchObject({
      embedOrigins: ["https://creator.example", "http://localhost:4000"],
    });
  });

  it("saves integers and social links, says so, and refreshes the public settings", async () => {
    const api = settingsApi([echoSave]);
    const user = await openPage();
    const free = screen.getByLabelText("Free Messages per Day");
    await user.clear(free);
    await user.type(free, "3");
    const words = screen.getByLabelText("Max Words per Message");
    await user.clear(words);
    await user.type(words, "250");
    await user.type(screen.getByLabelText("Instagram"), "https://instagram.com/twin");
    await user.clear(screen.getByLabelText("AI Name"));
    await user.type(screen.getByLabelText("AI Name"), "Nova");
    await user.click(screen.getByRole("switch", { name: /Enable Voice Conversation for the AI/ }));
    await user.click(screen.getByRole("button", { name: "Save Settings" }));

    expect(await screen.findByText("Settings saved successfully!")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Saved" })).toBeInTheDocument();
    const [put] = api.callsTo(routes.settings.save);
    expect(put?.headers.get("authorization")).toBe("Bearer admin-token");
    expect(put?.body).toMatchObject({
      freeMessagesPerDay: 3,
      maxWordsPerMessage: 250,
      defaultCredits: 100,
      apiKeys: { openai: MASKED_OPENAI },
      aiProfile: { name: "Nova", enableVoiceConversation: false },
      socialMediaProfiles: { instagram: "https://instagram.com/twin", twitter: "" },
    });
    await waitFor(() => expect(api.callsTo(routes.settings.public).length).toBeGreaterThan(1));
  });

  it("refuses an emptied word limit (read as 0) naming the field, and sends nothing", async () => {
    const api = settingsApi();
    const user = await openPage();
    await user.clear(screen.getByLabelText("Free Messages per Day"));
    await user.clear(screen.getByLabelText("Max Words per Message"));
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText("Please fix the validation errors")).toBeInTheDocument();
    expect(screen.getByText("Max words per message must be at least 1")).toBeInTheDocument();
    expect(screen.queryByText(/Free messages per day must/)).not.toBeInTheDocument();
    expect(api.callsTo(routes.settings.save)).toHaveLength(0);
  });

  it("saves emptied free messages per day as 0 (subscribers only)", async () => {
    const api = settingsApi([echoSave]);
    const user = await openPage();
    await user.clear(screen.getByLabelText("Free Messages per Day"));
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText("Settings saved successfully!")).toBeInTheDocument();
    const [put] = api.callsTo(routes.settings.save);
    expect(put?.body).toMatchObject({ freeMessagesPerDay: 0 });
  });

  it("marks a bad link and a credit cost under 1, and sends nothing", async () => {
    const api = settingsApi();
    const user = await openPage();
    await user.type(screen.getByLabelText("Twitter"), "not a link");
    await user.clear(screen.getByLabelText("Credits per Minute"));
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText("Please fix the validation errors")).toBeInTheDocument();
    expect(
      screen.getByText("Must be a full URL starting with http:// or https://"),
    ).toBeInTheDocument();
    expect(screen.getByText("Credit cost must be at least 1")).toBeInTheDocument();
    expect(api.callsTo(routes.settings.save)).toHaveLength(0);
  });

  it("keeps the minimum age at 13 or more, and saves a higher one", async () => {
    const api = settingsApi();
    const user = await openPage();
    const minimumAge = screen.getByLabelText("Minimum Age");
    expect(minimumAge).toHaveValue(18);
    await user.clear(minimumAge);
    await user.type(minimumAge, "12");
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText(AGE_MESSAGES.minimumAgeTooLow)).toBeInTheDocument();
    expect(api.callsTo(routes.settings.save)).toHaveLength(0);
    await user.clear(minimumAge);
    await user.type(minimumAge, "21");
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    await waitFor(() => expect(api.callsTo(routes.settings.save)).toHaveLength(1));
    expect(api.callsTo(routes.settings.save)[0]?.body).toMatchObject({ minimumAge: 21 });
  });

  it("shows the trial's daily caps with their help, refuses them out of bounds, saves them", async () => {
    const api = settingsApi([echoSave]);
    const user = await openPage();
    const perAddress = screen.getByLabelText("Trial Messages per Address per Day");
    const perDay = screen.getByLabelText("Trial Messages per Day, Whole Site");
    expect(perAddress).toHaveValue(30);
    expect(perDay).toHaveValue(1000);
    expect(perAddress).toHaveAccessibleDescription(/AI provider budget/);
    expect(perDay).toHaveAccessibleDescription(/AI provider budget in a day/);

    await user.clear(perAddress);
    await user.type(perAddress, "1001");
    await user.clear(perDay);
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText("Please fix the validation errors")).toBeInTheDocument();
    expect(
      screen.getByText("Trial messages per address per day must be at most 1,000"),
    ).toBeInTheDocument();
    expect(screen.getByText("Trial messages per day must be at least 1")).toBeInTheDocument();
    expect(api.callsTo(routes.settings.save)).toHaveLength(0);

    await user.clear(perAddress);
    await user.type(perAddress, "12");
    await user.type(perDay, "250");
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText("Settings saved successfully!")).toBeInTheDocument();
    expect(api.callsTo(routes.settings.save)[0]?.body).toMatchObject({
      anonymousMessagesPerAddressPerDay: 12,
      anonymousMessagesPerDay: 250,
    });
  });

  it("keeps the typed values when the save fails", async () => {
    settingsApi([
      on(routes.settings.save, () => reply({ success: false, message: "Internal" }, 500)),
    ]);
    const user = await openPage();
    await user.type(screen.getByLabelText("YouTube"), "https://youtube.com/@twin");
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findAllByText("Failed to save settings")).not.toHaveLength(0);
    expect(screen.getByLabelText("YouTube")).toHaveValue("https://youtube.com/@twin");
  });

  it("uploads a logo at once: the spec's success message and the preview", async () => {
    const api = settingsApi([
      on(routes.settings.uploadImage, {
        success: true,
        message: "Uploaded",
        data: adminSettings({ lightThemeLogo: "/uploads/light.png" }),
      }),
    ]);
    const user = await openPage();
    const field = screen.getByTestId("image-field-lightThemeLogo");
    expect(within(field).queryByRole("img")).not.toBeInTheDocument();
    await user.upload(screen.getByTestId("image-input-lightThemeLogo"), png());
    expect(await screen.findByText("Light Theme Logo uploaded successfully")).toBeInTheDocument();
    expect(within(field).getByRole("img", { name: "Light Theme Logo preview" })).toHaveAttribute(
      "src",
      "/uploads/light.png",
    );
    const form = api.callsTo(routes.settings.uploadImage)[0]?.form;
    // A file part (jsdom's File reaches msw through Node's fetch, so it is not jsdom's File class).
    expect(form?.get("lightThemeLogo")).not.toBeTypeOf("string");
    expect(form?.get("lightThemeLogo")).toBeTruthy();
    expect([...(form?.keys() ?? [])]).toEqual(["lightThemeLogo"]);
    expect(api.callsTo(routes.settings.uploadImage)[0]?.headers.get("authorization")).toBe(
      "Bearer admin-token",
    );
  });

  it("says why an upload failed and marks the field", async () => {
    let message: string | undefined = "Image type not allowed";
    const upload = (): Response =>
      message ? reply({ success: false, message }, 400) : new Response("", { status: 500 });
    settingsApi([on(routes.settings.uploadImage, upload)]);
    const user = await openPage({ applyAccept: false });
    await user.upload(screen.getByTestId("image-input-aiProfileImage"), png("me.png"));
    expect(
      await screen.findByText("Failed to upload image: Image type not allowed"),
    ).toBeInTheDocument();
    const field = screen.getByTestId("image-field-aiProfileImage");
    expect(within(field).getByRole("alert")).toHaveTextContent("Failed to upload image");

    message = undefined;
    toast.remove();
    await user.upload(screen.getByTestId("image-input-aiProfileImage"), png("me.png"));
    expect(await screen.findByText("Failed to upload image: Unknown error")).toBeInTheDocument();

    // The client's own check: a favicon must be .ico, .png or .svg.
    toast.remove();
    const jpg = new File(["x"], "icon.jpg", { type: "image/jpeg" });
    await user.upload(screen.getByTestId("image-input-favicon"), jpg);
    expect(
      await screen.findByText(
        "Failed to upload image: The favicon must be an .ico, .png or .svg file",
      ),
    ).toBeInTheDocument();
  });

  it("removes an image; a failed removal is only logged", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    let fail = false;
    const api = settingsApi([
      on(routes.settings.admin, {
        success: true,
        data: adminSettings({ darkThemeLogo: "/uploads/dark.png" }),
      }),
      on(routes.settings.removeImage, () =>
        fail
          ? reply({ success: false, message: "Nope" }, 500)
          : { success: true as const, data: adminSettings() },
      ),
    ]);
    fail = true;
    const user = await openPage();
    await user.click(screen.getByRole("button", { name: "Remove Dark Theme Logo" }));
    await waitFor(() => expect(errors).toHaveBeenCalled());
    expect(screen.queryByText(/Nope|Failed/)).not.toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Dark Theme Logo preview" })).toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole("button", { name: "Remove Dark Theme Logo" }));
    await waitFor(() =>
      expect(
        screen.queryByRole("img", { name: "Dark Theme Logo preview" }),
      ).not.toBeInTheDocument(),
    );
    expect(api.callsTo(routes.settings.removeImage, { kind: "dark" })).toHaveLength(2);
  });
});
