import type { PublicSettings } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import { boolean, check, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The site settings: exactly one row. `data` holds the public settings document (validated by
 * the contracts schema and merged over the defaults on read), so adding a setting needs no
 * migration. Provider keys live in `provider_keys`, encrypted; they never go in `data`.
 */
export const siteSettings = pgTable(
  "site_settings",
  {
    // Always true: the primary key plus the check make a second row impossible.
    singleton: boolean("singleton").primaryKey().default(true),
    data: jsonb("data").$type<Partial<PublicSettings>>().notNull().default({}),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("site_settings_singleton", sql`${table.singleton}`)],
);

/** The provider keys the admin may store (docs/decisions/0010-provider-keys.md). */
export const PROVIDER_KEY_NAMES = [
  "openai",
  "stripeSecret",
  "stripePublishable",
  "elevenLabs",
] as const;
export type ProviderKeyName = (typeof PROVIDER_KEY_NAMES)[number];

/**
 * The admin's provider keys, one row per key, each sealed with AES-256-GCM under SECRETS_KEY
 * (src/lib/secret-box.ts). Apart from `site_settings`, so no query of the public settings can
 * ever select a key. A key that is not set has no row.
 */
export const providerKeys = pgTable(
  "provider_keys",
  {
    name: text("name").$type<ProviderKeyName>().primaryKey(),
    /** "v1." + base64url(iv ‖ tag ‖ ciphertext); never the plaintext. */
    sealed: text("sealed").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "provider_keys_name",
      sql`${table.name} in ('openai', 'stripeSecret', 'stripePublishable', 'elevenLabs')`,
    ),
  ],
);

/**
 * The last test of each provider key (POST /api/settings/test-*), for the key it tested: the
 * admin sees whether the key in force passed it (issue 24: a key whose test failed showed
 * "Live" once saved). `key_digest` is an HMAC of the tested key under SECRETS_KEY, so a result
 * applies to the stored key only when it is that same key; never the key itself.
 */
export const providerKeyTests = pgTable(
  "provider_key_tests",
  {
    name: text("name").$type<ProviderKeyName>().primaryKey(),
    keyDigest: text("key_digest").notNull(),
    ok: boolean("ok").notNull(),
    /** The provider's refusal (secrets redacted), empty when the test passed. */
    message: text("message").notNull().default(""),
    testedAt: timestamp("tested_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "provider_key_tests_name",
      sql`${table.name} in ('openai', 'stripeSecret', 'elevenLabs')`,
    ),
  ],
);

/**
 * The site's own pages (terms, privacy, refunds, safety, about, contact, faq) as the admin wrote them, in
 * markdown. A page without a row shows its built-in text (modules/settings/page-defaults.ts).
 */
export const sitePages = pgTable(
  "site_pages",
  {
    slug: text("slug").primaryKey(),
    content: text("content").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "site_pages_slug",
      sql`${table.slug} in ('terms', 'privacy', 'refunds', 'safety', 'about', 'contact', 'faq')`,
    ),
  ],
);
