import {
  type CreatePromotionCodeRequest,
  type Currency,
  PROMOTION_MESSAGES,
  type PromotionCode,
} from "@twinline/contracts";
import { and, count, desc, eq, gt, inArray, or, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import {
  checkoutSessions,
  type PromotionCodeRow,
  promotionCodes,
} from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { percentOffMinor, toBasisPoints, toMajor, toMinor } from "../../../lib/money.ts";
import { pageOffset, pagination } from "../../../lib/paging.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { CheckoutDiscount, PaymentsProvider } from "../../../providers/payments/index.ts";
import { type AuditActor, writeAuditEntry } from "../../audit/in-transaction.ts";
import { providerCall } from "../provider-call.ts";

/** What a code is checked against: the purchase and its price before the code. */
export interface PromotionTarget {
  kind: "package" | "plan";
  amountMinor: number;
  currency: Currency;
}

/** A code that applies to a purchase: the row, and what it takes off (minor units). */
export interface AppliedPromotion {
  row: PromotionCodeRow;
  discountMinor: number;
}

const FIELD = { field: "promotionCode" };
const refuse = (message: string) => new HttpError(400, message, FIELD);

export function toPromotionCode(row: PromotionCodeRow, redemptions: number): PromotionCode {
  return {
    _id: row.id,
    code: row.code,
    kind: row.kind,
    percentOff: row.percentBasisPoints === null ? null : row.percentBasisPoints / 100,
    amountOff: row.amountOffMinor === null ? null : toMajor(row.amountOffMinor),
    currency: row.currency,
    appliesTo: row.appliesTo,
    maxRedemptions: row.maxRedemptions,
    redemptions,
    expiresAt: row.expiresAt.toISOString(),
    isActive: row.isActive,
    stripePromotionCodeId: row.stripePromotionCodeId,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * What a code takes off a price (docs/decisions/0083): a percentage rounds to the nearest minor
 * unit, a half up (lib/money.ts); an amount is taken as it is. Never the whole price.
 */
export function discountFor(row: PromotionCodeRow, priceMinor: number): number {
  return row.percentBasisPoints !== null
    ? percentOffMinor(priceMinor, row.percentBasisPoints)
    : (row.amountOffMinor ?? 0);
}

/**
 * What a checkout with a code sells, once its provider has made the session. Stripe computes the
 * discount itself from the coupon: a total one minor unit from ours is its rounding of a half
 * minor unit, the fan is charged that total, so that is what is sold (and the discount is what
 * it took off). Any other difference is not rounding: ours stands, and the payment's check
 * (fulfilment/verify-payment.ts) grants nothing on an amount that does not match it.
 */
export function saleAfterProviderRounding(
  ours: { amountMinor: number; discountMinor: number },
  providerTotalMinor: number | null,
): { amountMinor: number; discountMinor: number } {
  if (providerTotalMinor === null || Math.abs(providerTotalMinor - ours.amountMinor) !== 1) {
    return ours;
  }
  return {
    amountMinor: providerTotalMinor,
    discountMinor: ours.discountMinor - (providerTotalMinor - ours.amountMinor),
  };
}

/**
 * The uses of a code: checkouts paid with it, and open ones (each holds a use until it expires
 * or is paid). Counted under the code's row lock by `reserve`.
 */
const inUse = (now: Date) =>
  or(
    and(eq(checkoutSessions.status, "complete"), eq(checkoutSessions.paymentStatus, "paid")),
    and(eq(checkoutSessions.status, "open"), gt(checkoutSessions.expiresAt, now)),
  );

/**
 * Promotion codes (issue 27 item 4; docs/decisions/0083): the admin's codes (each write audited
 * in its transaction) and the checkout's check and hold of a use.
 */
export function createPromotionsService(options: {
  db: Database;
  payments: () => Promise<PaymentsProvider>;
  clock: Clock;
}) {
  const { db, payments, clock } = options;
  const now = () => new Date(clock.now());

  /** The code's uses, and this fan's (none asked: `userId` null). */
  const uses = async (tx: Database, codeId: string, userId: string | null, at: Date) => {
    const [row] = await tx
      .select({
        total: count(),
        mine: sql<number>`count(*) filter (where ${checkoutSessions.userId} = ${userId}::uuid)`.mapWith(
          Number,
        ),
      })
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.promotionCodeId, codeId), inUse(at)));
    return { total: row?.total ?? 0, mine: row?.mine ?? 0 };
  };

  /** The checks in the order the fan's answer names them; `usage` when counted. */
  const check = (
    row: PromotionCodeRow | undefined,
    target: PromotionTarget,
    at: Date,
    usage: { total: number; mine: number } | null,
  ): AppliedPromotion => {
    if (!row) throw refuse(PROMOTION_MESSAGES.unknown);
    if (!row.isActive) throw refuse(PROMOTION_MESSAGES.inactive);
    if (row.expiresAt <= at) throw refuse(PROMOTION_MESSAGES.expired);
    const wanted = target.kind === "package" ? "packages" : "plans";
    if (row.appliesTo !== "both" && row.appliesTo !== wanted) {
      throw refuse(PROMOTION_MESSAGES.wrongProduct);
    }
    if (row.currency !== null && row.kind === "amount" && row.currency !== target.currency) {
      throw refuse(PROMOTION_MESSAGES.wrongCurrency);
    }
    if (usage) {
      if (usage.mine > 0) throw refuse(PROMOTION_MESSAGES.alreadyUsed);
      if (row.maxRedemptions !== null && usage.total >= row.maxRedemptions) {
        throw refuse(PROMOTION_MESSAGES.usedUp);
      }
    }
    const discountMinor = discountFor(row, target.amountMinor);
    if (discountMinor >= target.amountMinor) throw refuse(PROMOTION_MESSAGES.zeroTotal);
    return { row, discountMinor };
  };

  const byCode = async (tx: Database, code: string, lock: boolean) => {
    const query = tx.select().from(promotionCodes).where(eq(promotionCodes.code, code));
    const [row] = lock ? await query.for("update") : await query;
    return row;
  };

  const byId = async (tx: Database, id: string, lock = false) => {
    const query = tx.select().from(promotionCodes).where(eq(promotionCodes.id, id));
    const [row] = lock ? await query.for("update") : await query;
    if (!row) throw new HttpError(404, PROMOTION_MESSAGES.notFound);
    return row;
  };

  /** Uses of several codes at once (a page of the admin's list). */
  const usesOf = async (ids: string[]): Promise<Map<string, number>> => {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: checkoutSessions.promotionCodeId, n: count() })
      .from(checkoutSessions)
      .where(and(inArray(checkoutSessions.promotionCodeId, ids), inUse(now())))
      .groupBy(checkoutSessions.promotionCodeId);
    return new Map(rows.map((row) => [String(row.id), row.n]));
  };

  /** The provider's side of a code (Stripe's coupon and promotion code), made once. */
  const atProvider = async (
    row: PromotionCodeRow,
    provider: PaymentsProvider,
  ): Promise<PromotionCodeRow> => {
    if (provider.mode !== "stripe" || !provider.catalogue || row.stripePromotionCodeId) return row;
    const catalogue = provider.catalogue;
    const made = await providerCall(() =>
      catalogue.createPromotion({
        code: row.code,
        percentBasisPoints: row.percentBasisPoints,
        amountOffMinor: row.amountOffMinor,
        currency: row.currency,
        maxRedemptions: row.maxRedemptions,
        expiresAt: row.expiresAt,
        metadata: { twinline_promotion_code_id: row.id },
      }),
    );
    const [saved] = await db
      .update(promotionCodes)
      .set({ stripeCouponId: made.couponId, stripePromotionCodeId: made.promotionCodeId })
      .where(eq(promotionCodes.id, row.id))
      .returning();
    return saved ?? row;
  };

  return {
    async list(query: { page: number; limit: number }) {
      const [total] = await db.select({ n: count() }).from(promotionCodes);
      const rows = await db
        .select()
        .from(promotionCodes)
        .orderBy(desc(promotionCodes.createdAt), desc(promotionCodes.id))
        .limit(query.limit)
        .offset(pageOffset(query));
      const counts = await usesOf(rows.map((row) => row.id));
      return {
        data: rows.map((row) => toPromotionCode(row, counts.get(row.id) ?? 0)),
        pagination: pagination(total?.n ?? 0, query),
      };
    },

    /** A new code; on Stripe its coupon and promotion code are made first. */
    async create(actor: AuditActor, input: CreatePromotionCodeRequest & { code: string }) {
      const [taken] = await db
        .select({ id: promotionCodes.id })
        .from(promotionCodes)
        .where(eq(promotionCodes.code, input.code));
      if (taken) throw new HttpError(409, PROMOTION_MESSAGES.duplicate, { field: "code" });
      const values: typeof promotionCodes.$inferInsert = {
        code: input.code,
        kind: input.kind,
        percentBasisPoints:
          input.kind === "percent" ? toBasisPoints(Number(input.percentOff)) : null,
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
        const synced = await atProvider(row, provider).catch(() => row);
        return toPromotionCode(synced, 0);
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new HttpError(409, PROMOTION_MESSAGES.duplicate, { field: "code" });
        }
        throw error;
      }
    },

    /** Disables (or enables again) a code; open checkouts that hold it keep their price. */
    async setActive(actor: AuditActor, id: string, isActive: boolean) {
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
    },

    /**
     * The checkout's first look at a code (clear 400s naming `promotionCode`): applies, and the
     * fan has not used it. Nothing is held yet: `reserve` counts again under the lock.
     */
    async preview(userId: string, code: string, target: PromotionTarget) {
      const at = now();
      const row = await byCode(db, code, false);
      const applied = check(row, target, at, row ? await uses(db, row.id, userId, at) : null);
      return applied;
    },

    /**
     * Holds a use of the code for this checkout, in the transaction that records its session:
     * the code's row is locked while its uses are counted, so of two fans taking the last use,
     * one has it and the other is told it is used up.
     */
    async reserve(tx: Database, codeId: string, userId: string, target: PromotionTarget) {
      const at = now();
      const row = await byId(tx, codeId, true);
      return check(row, target, at, await uses(tx, codeId, userId, at));
    },

    /** The discount the provider applies (Stripe's promotion code made when first needed). */
    async providerDiscount(
      applied: AppliedPromotion,
      provider: PaymentsProvider,
    ): Promise<CheckoutDiscount> {
      const row = await atProvider(applied.row, provider);
      return { amountOffMinor: applied.discountMinor, promotionCodeId: row.stripePromotionCodeId };
    },
  };
}

export type PromotionsService = ReturnType<typeof createPromotionsService>;
