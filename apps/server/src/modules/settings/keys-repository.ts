import { inArray, sql } from "drizzle-orm";
import { type NotifyingStep, writeAndNotify } from "../../db/cached-by-notify.ts";
import type { Database } from "../../db/client.ts";
import { type ProviderKeyName, providerKeys } from "../../db/schema/index.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import { rememberSecret } from "../../lib/secret-values.ts";
import type { StoredProviderKeys } from "../../providers/resolve.ts";

/** The PostgreSQL channel on which every instance hears that the provider keys changed. */
export const PROVIDER_KEYS_CHANGED_CHANNEL = "provider_keys_changed";

/** Per key: a new value to store, or null to remove it; keys not named stay as they are. */
export type ProviderKeyChanges = Partial<Record<ProviderKeyName, string | null>>;

export interface ProviderKeysRepository {
  /** The stored keys, decrypted. A row that no longer opens (SECRETS_KEY changed) is left out. */
  read(): Promise<StoredProviderKeys>;
  /**
   * Seals and saves the changes in one transaction that NOTIFYs every instance, then tells this
   * process's listeners (docs/decisions/0013-provider-keys-cache.md).
   */
  write(changes: ProviderKeyChanges): Promise<void>;
  /** The same write as a step of another transaction (PUT /api/settings: with the settings). */
  writeStep(changes: ProviderKeyChanges): NotifyingStep;
}

export function createProviderKeysRepository(
  db: Database,
  box: SecretBox,
  onUnreadable?: (name: ProviderKeyName) => void,
): ProviderKeysRepository {
  return {
    async read() {
      const rows = await db
        .select({ name: providerKeys.name, sealed: providerKeys.sealed })
        .from(providerKeys);
      const keys: StoredProviderKeys = {};
      for (const row of rows) {
        try {
          keys[row.name] = box.open(row.sealed);
          if (row.name !== "stripePublishable") rememberSecret(keys[row.name]);
        } catch {
          onUnreadable?.(row.name);
        }
      }
      return keys;
    },

    async write(changes) {
      if (Object.keys(changes).length === 0) return;
      const step = writeStep(changes);
      await writeAndNotify(db, step.channel, step.run);
    },
    writeStep,
  };

  function writeStep(changes: ProviderKeyChanges): NotifyingStep {
    const entries = Object.entries(changes) as [ProviderKeyName, string | null][];
    const removed = entries.filter(([, value]) => value === null).map(([name]) => name);
    const saved = entries.flatMap(([name, value]) =>
      value === null ? [] : [{ name, sealed: box.seal(value) }],
    );
    // The publishable key is public (the checkout page shows it); every other is redacted.
    for (const [name, value] of entries) if (name !== "stripePublishable") rememberSecret(value);
    return {
      channel: PROVIDER_KEYS_CHANGED_CHANNEL,
      async run(tx) {
        if (removed.length > 0)
          await tx.delete(providerKeys).where(inArray(providerKeys.name, removed));
        if (saved.length > 0) {
          await tx
            .insert(providerKeys)
            .values(saved)
            .onConflictDoUpdate({
              target: providerKeys.name,
              set: { sealed: sql`excluded.sealed`, updatedAt: sql`now()` },
            });
        }
      },
    };
  }
}
