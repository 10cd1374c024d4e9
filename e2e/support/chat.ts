import { expect } from "@playwright/test";
import type { Page } from "playwright-core";

export const DAILY_LIMIT_BUBBLE =
  "You've reached your daily message limit. Subscribe to our service for unlimited messaging!";

export const composer = (page: Page) => page.getByRole("textbox", { name: /^Message / });

/** Opens the chat of a fan with no conversation yet and waits for its empty state. */
export async function openEmptyChat(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/dashboard/chat`);
  await page.getByText(/Say hello to/).waitFor();
}

/**
 * Sends `text` from the composer and waits until it shows and the conversation holds `replies`
 * replies, the last one perhaps still streaming.
 */
export async function sendAndAwaitReply(page: Page, text: string, replies: number) {
  await composer(page).fill(text);
  await composer(page).press("Enter");
  await page.getByTestId("user-message").filter({ hasText: text }).waitFor();
  await expect
    .poll(() => page.getByTestId("ai-message").count(), { timeout: 30_000 })
    .toBe(replies);
}
