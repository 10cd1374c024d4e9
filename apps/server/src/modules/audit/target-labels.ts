import { SITE_PAGES } from "@twinline/contracts";
import { eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  creditPackages,
  knowledgeDocuments,
  payments,
  subscriptionPlans,
  userSubscriptions,
  users,
} from "../../db/schema/index.ts";
import { isUuid } from "../../lib/search.ts";

export interface AuditTarget {
  targetType: string;
  targetId: string | null;
}

type Labels = Map<string, string>;
type LabelReader = (db: Database, ids: string[]) => Promise<[string, string][]>;

const userEmails: LabelReader = (db, ids) =>
  db
    .select({ id: users.id, label: users.email })
    .from(users)
    .where(inArray(users.id, ids))
    .then((rows) => rows.map((row) => [row.id, row.label]));

/** Per target type, how its ids read as what an operator calls them (by primary key). */
const READERS: Partial<Record<string, LabelReader>> = {
  user: userEmails,
  admin: userEmails,
  plan: (db, ids) =>
    db
      .select({ id: subscriptionPlans.id, label: subscriptionPlans.name })
      .from(subscriptionPlans)
      .where(inArray(subscriptionPlans.id, ids))
      .then((rows) => rows.map((row) => [row.id, row.label])),
  package: (db, ids) =>
    db
      .select({ id: creditPackages.id, label: creditPackages.name })
      .from(creditPackages)
      .where(inArray(creditPackages.id, ids))
      .then((rows) => rows.map((row) => [row.id, row.label])),
  // Whose subscription to what: "Gold Plan · fan@example.com".
  subscription: (db, ids) =>
    db
      .select({ id: userSubscriptions.id, plan: subscriptionPlans.name, email: users.email })
      .from(userSubscriptions)
      .innerJoin(users, eq(users.id, userSubscriptions.userId))
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, userSubscriptions.planId))
      .where(inArray(userSubscriptions.id, ids))
      .then((rows) => rows.map((row) => [row.id, `${row.plan} · ${row.email}`])),
  // Whose payment for what: "Starter Pack · fan@example.com".
  payment: (db, ids) =>
    db
      .select({ id: payments.id, item: payments.itemName, email: users.email })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .where(inArray(payments.id, ids))
      .then((rows) => rows.map((row) => [row.id, `${row.item} · ${row.email}`])),
  ai_training: (db, ids) =>
    db
      .select({ id: knowledgeDocuments.id, label: knowledgeDocuments.originalName })
      .from(knowledgeDocuments)
      .where(inArray(knowledgeDocuments.id, ids))
      .then((rows) => rows.map((row) => [row.id, row.label])),
};

const PAGE_TITLES: Labels = new Map(SITE_PAGES.map((page) => [page.slug, page.title]));

const key = (targetType: string, id: string) => `${targetType}:${id}`;

/**
 * The labels of a page of entries' targets, read now (a renamed plan shows its new name): one
 * primary-key lookup per target type on the page. A target gone since (a deleted document) has
 * none; the screen then shows its id.
 */
export async function readTargetLabels(
  db: Database,
  entries: readonly AuditTarget[],
): Promise<(string | null)[]> {
  const idsByType = new Map<string, Set<string>>();
  for (const { targetType, targetId } of entries) {
    if (!targetId || !isUuid(targetId) || !READERS[targetType]) continue;
    const ids = idsByType.get(targetType) ?? new Set<string>();
    ids.add(targetId);
    idsByType.set(targetType, ids);
  }
  const labels: Labels = new Map();
  await Promise.all(
    [...idsByType].map(async ([targetType, ids]) => {
      const read = READERS[targetType];
      if (!read) return;
      for (const [id, label] of await read(db, [...ids])) labels.set(key(targetType, id), label);
    }),
  );
  return entries.map(({ targetType, targetId }) => {
    if (!targetId) return null;
    if (targetType === "page") return PAGE_TITLES.get(targetId) ?? null;
    return labels.get(key(targetType, targetId)) ?? null;
  });
}
