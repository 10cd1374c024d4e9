import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type AdminSettings, DEFAULT_CRISIS_RESOURCES, routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { mockAdminApi, signInAdmin } from "@/test/admin";
import { on } from "@/test/api-mock";
import { renderApp } from "@/test/render";
import { adminSettings, OFFLINE_PROVIDERS, settingsRoute } from "../test/fixtures";

// Issue 25: the operator's crisis lines per country, edited on the settings screen, checked by
// the contract's rules field by field before anything is sent.

configure({ asyncUtilTimeout: 5000 });
afterEach(() => {
  toast.remove();
});

function settingsApi() {
  return mockAdminApi([
    settingsRoute(adminSettings()),
    on(routes.sitePages.adminList, { success: true, data: [] }),
    on(routes.settings.save, ({ body }) => ({
      success: true as const,
      message: "Settings updated",
      data: { ...(body as AdminSettings), providers: OFFLINE_PROVIDERS },
    })),
  ]);
}

async function openSection() {
  signInAdmin();
  renderApp("/admin/Settings");
  return screen.findByRole("region", { name: "Crisis Resources" });
}

/** Replaces a field's text in one input event (typing letter by letter is slow and not the point). */
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

const puts = (api: ReturnType<typeof mockAdminApi>) => api.callsTo(routes.settings.save);

describe("crisis resources on the settings screen", () => {
  it("lists the defaults, marks a bad field and sends nothing, then saves a new line", async () => {
    const api = settingsApi();
    const section = await openSection();
    const user = userEvent.setup();
    const rows = within(section).getAllByTestId("crisis-resource-row");
    expect(rows).toHaveLength(DEFAULT_CRISIS_RESOURCES.length);
    expect(within(rows[0] as HTMLElement).getByLabelText("Name")).toHaveValue(
      "988 Suicide & Crisis Lifeline",
    );

    await user.click(within(section).getByRole("button", { name: "Add resource" }));
    const added = within(section).getAllByTestId("crisis-resource-row").at(-1) as HTMLElement;
    await fill(user, within(added).getByLabelText("Country"), "Canada");
    await fill(user, within(added).getByLabelText("Name"), "Talk Suicide Canada");
    await fill(user, within(added).getByLabelText("Link"), "http://talksuicide.ca");
    await user.click(within(section).getByRole("button", { name: "Save Crisis Resources" }));
    expect(
      await within(added).findByText("Country must be two-letter country codes (US, GB IE) or INT"),
    ).toBeInTheDocument();
    expect(
      within(added).getByText("Resource link must be a full URL starting with https://"),
    ).toBeInTheDocument();
    expect(puts(api)).toHaveLength(0);
    await fill(user, within(added).getByLabelText("Country"), "CA");
    await fill(user, within(added).getByLabelText("Link"), "https://talksuicide.ca");
    await fill(user, within(added).getByLabelText("Phone or text"), "Call or text 988");
    await user.click(within(section).getByRole("button", { name: "Save Crisis Resources" }));
    await waitFor(() => expect(puts(api)).toHaveLength(1));
    const body = puts(api)[0]?.body as AdminSettings;
    expect(body.crisisResources.at(-1)).toEqual({
      country: "CA",
      name: "Talk Suicide Canada",
      contact: "Call or text 988",
      url: "https://talksuicide.ca",
    });
    expect(body.crisisResources).toHaveLength(DEFAULT_CRISIS_RESOURCES.length + 1);
  });
});
