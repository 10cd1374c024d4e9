import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import { ADMIN_ENV, signInAdmin } from "./support/accounts";
import { horizontalOverflow, launchBrowser, type TestBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// The operator makes Twinline theirs: logo and persona image on the landing page, a social link in
// the footer, a PDF in the persona's knowledge, and a key test that fails with the provider's own
// message. Needs the built app with the server side of issue 4 (settings writes, uploads,
// key tests, AI training).

const OPENAI_REFUSAL = "Incorrect API key provided";

/** A 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A minimal valid one-page PDF whose page shows `text` (Helvetica), with a correct xref table. */
function makePdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}

/** A stand-in for the OpenAI API that refuses every key, as the real one does a wrong key. */
async function startRefusingOpenAi(): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(401, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        error: {
          message: OPENAI_REFUSAL,
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, server };
}

let app: RunningServer;
let openai: { url: string; server: Server };
let browser: TestBrowser;

test.beforeAll(async () => {
  openai = await startRefusingOpenAi();
  app = await startServer({
    env: { ...ADMIN_ENV, OPENAI_BASE_URL: openai.url },
  });
  browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
});

test.afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await new Promise((resolve) => openai?.server.close(resolve));
});

async function adminPage(width?: number): Promise<Page> {
  const page = await browser.newPage(width);
  await signInAdmin(page, app.url);
  return page;
}

/** Whether an <img> has loaded real pixels. */
async function loaded(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .evaluate((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0);
}

test.describe("operator configuration", () => {
  test("uploads a logo and a persona image and sets a social link; the landing page shows them", async () => {
    const page = await adminPage();
    await page.goto(`${app.url}/admin/Settings`);
    await page.getByRole("heading", { name: "Logo Settings" }).waitFor();

    await page
      .getByTestId("image-input-lightThemeLogo")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    await page.getByText("Light Theme Logo uploaded successfully").waitFor();
    await page
      .getByTestId("image-input-aiProfileImage")
      .setInputFiles({ name: "persona.png", mimeType: "image/png", buffer: PNG });
    await page.getByText("AI Profile Image uploaded successfully").waitFor();
    expect(
      await page.getByRole("img", { name: "Light Theme Logo preview" }).getAttribute("src"),
    ).toMatch(/\/uploads\//);

    const instagram = "https://instagram.com/twinline-e2e";
    await page.getByLabel("Instagram", { exact: true }).fill(instagram);
    await page.getByLabel("AI Name", { exact: true }).fill("Nova E2E");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await page.getByText("Settings saved successfully!").waitFor();

    // A visitor, in a fresh context, sees them.
    const visitor = await browser.newPage();
    await visitor.goto(`${app.url}/`);
    await visitor.getByRole("heading", { level: 1, name: /Nova E2E/ }).waitFor();
    const logo = visitor.locator('header img[alt="Twinline"]');
    await logo.waitFor();
    expect(await logo.getAttribute("src")).toMatch(/\/uploads\//);
    await expect.poll(() => loaded(visitor, 'header img[alt="Twinline"]')).toBe(true);
    const persona = visitor.locator('img[alt="Nova E2E"]');
    await persona.first().waitFor();
    expect(await persona.first().getAttribute("src")).toMatch(/\/uploads\//);
    await expect.poll(() => loaded(visitor, 'img[alt="Nova E2E"]')).toBe(true);
    const social = visitor.getByTestId("social-instagram");
    await social.waitFor();
    expect(await social.getAttribute("href")).toBe(instagram);
  });

  test("uploads a PDF to the persona's knowledge and sees it listed", async () => {
    const page = await adminPage(360);
    await page.goto(`${app.url}/admin/AITraining`);
    await page.getByRole("heading", { name: "Knowledge Documents" }).waitFor();
    await page.getByTestId("knowledge-input").setInputFiles({
      name: "twin-facts.pdf",
      mimeType: "application/pdf",
      buffer: makePdf("Nova grew up by the sea and loves lighthouses."),
    });
    const row = page.getByTestId("knowledge-document").filter({ hasText: "twin-facts.pdf" });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/passage/);
    // Still there after a reload: it was stored, not just shown.
    await page.reload();
    await page.getByTestId("knowledge-document").filter({ hasText: "twin-facts.pdf" }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });

  test("tests a key the provider refuses and shows the provider's message", async () => {
    const page = await adminPage();
    await page.goto(`${app.url}/admin/api-keys`);
    const key = page.getByLabel("OpenAI API Key", { exact: true });
    await key.waitFor();
    const test = page.getByRole("button", { name: "Test OpenAI Key" });
    await key.fill("");
    expect(await test.isDisabled()).toBe(true);
    await key.fill("sk-e2e-not-a-real-key");
    await test.click();
    const result = page.getByTestId("test-result-openai");
    await result.waitFor();
    const text = await result.textContent();
    expect(text).toContain("OpenAI API key test failed:");
    expect(text).toContain(OPENAI_REFUSAL);
    // Offline until a working key is saved.
    expect(await page.getByTestId("provider-mode-llm").textContent()).toContain("Offline");
  });
});
