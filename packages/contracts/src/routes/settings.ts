import { z } from "zod";
import {
  adminSettingsResponseSchema,
  SETTINGS_IMAGE_FIELDS,
  settingsImageKindSchema,
  testElevenLabsResponseSchema,
  testKeyRequestSchema,
  testOpenAiResponseSchema,
  testStripeResponseSchema,
  updateSettingsRequestSchema,
} from "../admin-settings";
import { publicSettingsSchema } from "../settings";
import {
  adminSitePageResponseSchema,
  adminSitePagesResponseSchema,
  sitePageResponseSchema,
  sitePageSlugSchema,
  updateSitePageRequestSchema,
} from "../site-pages";
import { publicSettingsAddress } from "./addresses";
import { defineRoute } from "./define";

const tags = ["settings"];
const adminErrors = [400, 401, 403, 413, 429];

const keyTest = <S extends z.ZodType>(provider: string, summary: string, response: S) =>
  defineRoute({
    method: "POST",
    path: `/api/settings/test-${provider}`,
    access: "admin",
    tags,
    summary,
    body: testKeyRequestSchema,
    response,
    errors: adminErrors,
  });

/** The site settings, the operator's settings and the site pages (apps/server/src/modules/settings). */
export const settingsRoutes = {
  public: defineRoute({
    ...publicSettingsAddress,
    tags,
    summary: "The public site settings (never any provider key)",
    response: publicSettingsSchema,
    otherResponses: {
      304: z.null().describe("Not modified: the settings still match If-None-Match"),
    },
  }),
  admin: defineRoute({
    method: "GET",
    path: "/api/admin/settings",
    access: "admin",
    tags,
    summary: "The settings with masked provider keys and provider modes",
    response: adminSettingsResponseSchema,
    errors: adminErrors,
  }),
  save: defineRoute({
    method: "PUT",
    path: "/api/settings",
    access: "admin",
    tags,
    summary:
      "Saves the whole settings object (a masked key keeps the stored key; empty removes it)",
    body: updateSettingsRequestSchema,
    response: adminSettingsResponseSchema,
    errors: adminErrors,
  }),
  testOpenAi: keyTest(
    "openai",
    "Lists the models the OpenAI key can use (a masked key tests the stored one)",
    testOpenAiResponseSchema,
  ),
  testStripe: keyTest("stripe", "Reads the Stripe balance with the key", testStripeResponseSchema),
  testElevenLabs: keyTest(
    "elevenlabs",
    "Lists the voices of the ElevenLabs key",
    testElevenLabsResponseSchema,
  ),
  uploadImage: defineRoute({
    method: "POST",
    path: "/api/settings/upload",
    access: "admin",
    kind: "upload",
    tags,
    summary: `One image under ${Object.keys(SETTINGS_IMAGE_FIELDS).join(", ")} (multipart; checked by content; 5 MB)`,
    response: adminSettingsResponseSchema,
    errors: adminErrors,
  }),
  removeImage: defineRoute({
    method: "DELETE",
    path: "/api/settings/image/:kind",
    access: "admin",
    tags,
    summary: "Removes an image setting and its file",
    params: z.object({ kind: settingsImageKindSchema }),
    response: adminSettingsResponseSchema,
    errors: adminErrors,
  }),
} as const;

/** The legal and company pages (apps/server/src/modules/settings/pages-*). */
export const sitePagesRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/api/pages/:slug",
    access: "public",
    tags: ["pages"],
    summary: "A site page (terms, privacy, refunds, about, contact, faq) in markdown",
    // Any slug is taken: an unknown one answers 404 "Page not found", not a validation 400.
    params: z.object({ slug: z.string() }),
    response: sitePageResponseSchema,
    errors: [404],
  }),
  adminList: defineRoute({
    method: "GET",
    path: "/api/admin/pages",
    access: "admin",
    tags: ["pages"],
    summary: "Every site page as saved, or its built-in text, placeholders kept",
    response: adminSitePagesResponseSchema,
    errors: [400, 401, 403],
  }),
  adminSave: defineRoute({
    method: "PUT",
    path: "/api/admin/pages/:slug",
    access: "admin",
    tags: ["pages"],
    summary: "Saves a site page's markdown; empty brings back the built-in text",
    params: z.object({ slug: sitePageSlugSchema }),
    body: updateSitePageRequestSchema,
    response: adminSitePageResponseSchema,
    errors: [400, 401, 403],
  }),
} as const;
