import type { ExportKind } from "./export-format.ts";
import { consents, notices, profile, pushNotifications } from "./export-kinds-account.ts";
import { calls, conversationList, memory, messages } from "./export-kinds-chat.ts";
import { creditLedgerKind, paymentsKind, subscriptions, usage } from "./export-kinds-money.ts";

export {
  EXPORT_PAGE_SIZE,
  type ExportContext,
  type ExportKind,
  type ExportOutput,
} from "./export-format.ts";

/**
 * Every kind of the export, one file each, in this order. Add a kind here (consents, for
 * example) and it is in every export and in the README.
 */
export const EXPORT_KINDS: readonly ExportKind[] = [
  profile,
  conversationList,
  messages,
  calls,
  memory,
  pushNotifications,
  creditLedgerKind,
  paymentsKind,
  subscriptions,
  consents,
  notices,
  usage,
];

/** The README of the ZIP: what each file holds, field by field. */
export function exportReadme(kinds: readonly ExportKind[], madeAt: Date): string {
  const sections = kinds.map((kind) => {
    const fields = Object.entries(kind.fields)
      .map(([name, meaning]) => `- \`${name}\`: ${meaning}`)
      .join("\n");
    return `## ${kind.file}\n\n${kind.title}.\n\n${fields}\n`;
  });
  return (
    "# Your data\n\n" +
    `Everything this service keeps about you, as of ${madeAt.toISOString()}. ` +
    "Each file is JSON (UTF-8); times are ISO 8601 in UTC; amounts of money are in the " +
    "currency's major unit (9.99 means 9.99 dollars).\n\n" +
    sections.join("\n")
  );
}
