// Renders the installed app's default icons (apps/web/public/icons/) from the built-in mark
// (apps/web/public/favicon.svg) in Debian's Chromium: 192 and 512 px, and a 512 px maskable one
// whose mark sits inside the safe zone (the middle 80%) on a full-bleed brand gradient.
// Run by hand when the mark changes: `node scripts/make-app-icons.mjs`; the PNGs are committed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const web = new URL("../apps/web/public/", import.meta.url).pathname;
const mark = readFileSync(join(web, "favicon.svg"), "utf8");
// The same mark without its rounded corners and scaled into the safe zone, for masks of any shape.
const maskable = mark
  .replace(
    '<rect width="64" height="64" rx="16" fill="url(#g)"/>',
    '<rect width="64" height="64" fill="url(#g)"/>',
  )
  .replace(/<path /, '<path transform="translate(12.8 12.8) scale(0.6)" ');
if (maskable === mark) throw new Error("favicon.svg changed shape: update this script");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
for (const [file, svg, size] of [
  ["icon-192.png", mark, 192],
  ["icon-512.png", mark, 512],
  ["icon-maskable-512.png", maskable, 512],
]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
  await page.setContent(
    `<html><body style="margin:0;background:transparent"><img src="${src}" width="${size}" height="${size}" style="display:block"></body></html>`,
  );
  await page.locator("img").evaluate((img) => img.decode());
  await page.screenshot({ path: join(web, "icons", file), omitBackground: true });
  await page.close();
}
await browser.close();
