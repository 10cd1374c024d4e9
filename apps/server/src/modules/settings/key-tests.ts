import { createHmac, hkdfSync } from "node:crypto";
import type { KeyTest, KeyTests } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { type ProviderKeyName, providerKeyTests } from "../../db/schema/index.ts";
import type { StoredProviderKeys } from "../../providers/resolve.ts";

/** The keys that have a test (the publishable key has none). */
export type TestedKeyName = Exclude<ProviderKeyName, "stripePublishable">;

/**
 * The last test of each provider key, remembered for the key it tested (an HMAC of it, never
 * the key), so the settings screen shows whether the key in force passed (issue 24).
 */
export function createKeyTestsRepository(db: Database, secretsKey: string) {
  const digestKey = Buffer.from(
    hkdfSync("sha256", secretsKey, "twinline", "provider-key-tests/hmac-sha256", 32),
  );
  const digestOf = (key: string) => createHmac("sha256", digestKey).update(key).digest("hex");

  return {
    async record(name: TestedKeyName, key: string, ok: boolean, message: string): Promise<void> {
      await db
        .insert(providerKeyTests)
        .values({ name, keyDigest: digestOf(key), ok, message })
        .onConflictDoUpdate({
          target: providerKeyTests.name,
          set: {
            keyDigest: sql`excluded.key_digest`,
            ok: sql`excluded.ok`,
            message: sql`excluded.message`,
            testedAt: sql`now()`,
          },
        });
    },

    /** For each stored key, its last test when that test was of this very key, else null. */
    async ofStored(stored: StoredProviderKeys): Promise<KeyTests> {
      const rows = await db.select().from(providerKeyTests);
      const of = (name: TestedKeyName): KeyTest | null => {
        const key = stored[name];
        const row = rows.find((candidate) => candidate.name === name);
        if (!key || !row || row.keyDigest !== digestOf(key)) return null;
        return { ok: row.ok, message: row.message, testedAt: row.testedAt.toISOString() };
      };
      return { openai: of("openai"), stripe: of("stripeSecret"), elevenLabs: of("elevenLabs") };
    },
  };
}

export type KeyTestsRepository = ReturnType<typeof createKeyTestsRepository>;
