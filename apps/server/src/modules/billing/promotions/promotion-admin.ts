import { type CreatePromotionCodeRequest, PROMOTION_MESSAGES } from "@twinline/contracts";
import { count, desc, eq } from "drizzle-orm";
import { isUniqueViolation } from "../../../db/errors.ts";
import { promotionCodes } from "../../../db/schema/index.ts";
import { toBasisPoints, toMinor } from "../../../lib/money.ts";
import { pageOffset, pagination } from "../../../lib/paging.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { type AuditActor, writeAuditEntry } from "../../audit/in-transaction.ts";
import { providerCall } from "../provider-call.ts";
import { atProvider } from "./promotion-checkout.ts";
import { byId, uses, usesOf } from "./promotion-queries.ts";
import { toPromotionCode } from "./promotion-terms.ts";
import type { PromotionsDeps } from "./promotions-deps.ts";

export async function list({ db, now }: PromotionsDeps, query: { page: number; limit: number }) {
  const [total] = await db.select({ n: count() }).from(promotionCodes);
  const rows = await db
    .select()
    .from(promotionCodes)
    .orderBy(desc(promotionCodes.createdAt), desc(promotionCodes.id))
    .limit(query.limit)
    .offset(pageOffset(query));
  const counts = await usesOf(
    db,
    rows.map((row) => row.id),
    now(),
  );
  return {
    data: rows.map((row) => toPromotionCode(row, counts.get(row.id) ?? 0)),
    pagination: pagination(total?.n ?? 0, query),
  };
}

/** A new code; on Stripe its coupon and promotion code are made first. */
export async function create(
  { db, payments }: PromotionsDeps,
  actor: AuditActor,
  input: CreatePromotionCodeRequest & { code: string },
) {
  const [taken] = await db
    .select({ id: promotionCodes.id })
    .from(promotionCodes)
    .where(eq(promotionCodes.code, input.code));
  if (taken) throw new HttpError(409, PROMOTION_MESSAGES.duplicate, { field: "code" });
  const values: typeof promotionCodes.$inferInsert = {
    code: input.code,
    kind: input.kind,
    percentBasisPoints: input.kind === "percent" ? toBasisPoints(Number(input.percentOff)) : null,
    amountOffMinor: input.kind === "amount" ? toMinor(Number(input.amountOff)) : null,
    currency: input.kind === "amount" ? (input.currency ?? null) : null,
    appliesTo: input.appliesTo,
    maxRedemptions: input.maxRedemptions == null ? null : Number(input.maxRedemptions),
    expiresAt: new Date(input.expiresAt),
  };
  try {
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx.insert(promotionCodes).values(values).returning();
      if (!inserted) throw new Error("The promotion code was not saved");
      await writeAuditEntry(tx, actor, {
        action: "promotion.create",
        targetType: "promotion",
        targetId: inserted.id,
        after: toPromotionCode(inserted, 0),
      });
      return inserted;
    });
    // Stripe's side after ours: a failure there leaves the code usable in the sandbox
    // and made again at its first Stripe checkout (atProvider).
    const provider = await payments();
    const synced = await atProvider(db, row, provider).catch(() => row);
    return toPromotionCode(synced, 0);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new HttpError(409, PROMOTION_MESSAGES.duplicate, { field: "code" });
    }
    throw error;
  }
}

/** Disables (or enables again) a code; open checkouts that hold it keep their price. */
export async function setActive(
  { db, payments, now }: PromotionsDeps,
  actor: AuditActor,
  id: string,
  isActive: boolean,
) {
  const current = await byId(db, id);
  if (current.stripePromotionCodeId) {
    const provider = await payments();
    const stripeId = current.stripePromotionCodeId;
    if (provider.catalogue) {
      const catalogue = provider.catalogue;
      await providerCall(() => catalogue.setPromotionCodeActive(stripeId, isActive));
    }
  }
  const saved = await db.transaction(async (tx) => {
    const before = await byId(tx, id, true);
    const [after] = await tx
      .update(promotionCodes)
      .set({ isActive, updatedAt: now() })
      .where(eq(promotionCodes.id, id))
      .returning();
    if (!after) throw new HttpError(404, PROMOTION_MESSAGES.notFound);
    const n = (await uses(tx, id, null, now())).total;
    await writeAuditEntry(tx, actor, {
      action: isActive ? "promotion.enable" : "promotion.disable",
      targetType: "promotion",
      targetId: id,
      before: toPromotionCode(before, n),
      after: toPromotionCode(after, n),
    });
    return toPromotionCode(after, n);
  });
  return saved;
}
