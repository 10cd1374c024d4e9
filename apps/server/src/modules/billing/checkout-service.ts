import {
  BILLING_MESSAGES,
  CHECKOUT_RETURN_PATHS,
  type CheckoutSessionView,
  type SandboxPayRequest,
} from "@twinline/contracts";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { type CheckoutSessionRow, checkoutSessions, type UserRow } from "../../db/schema/index.ts";
import { HttpError } from "../../plugins/errors.ts";
import {
  CardError,
  type PaymentsProvider,
  type SandboxPayments,
  SessionClosedError,
  sandboxId,
} from "../../providers/payments/index.ts";
import type { CatalogueService } from "./catalogue-service.ts";
import type { Fulfilment } from "./fulfilment.ts";
import { discountedMinor, providerCall, toMajor } from "./money.ts";
import type { SubscriptionsReader } from "./subscriptions-reader.ts";

export interface CheckoutServiceOptions {
  db: Database;
  catalogue: CatalogueService;
  payments: () => Promise<PaymentsProvider>;
  sandbox: SandboxPayments;
  fulfilment: Fulfilment;
  subscriptions: SubscriptionsReader;
  publicUrl: string;
}

function toView(row: CheckoutSessionRow, now: Date): CheckoutSessionView {
  const expired = row.status === "open" && row.expiresAt < now;
  return {
    sessionId: row.sessionId,
    provider: row.provider,
    mode: row.mode,
    status: expired ? "expired" : row.status,
    paymentStatus:
      row.paymentStatus === "paid" ? "paid" : row.paymentStatus === "failed" ? "failed" : "unpaid",
    fulfilled: row.fulfilledAt !== null,
    itemName: row.itemName,
    description: row.description,
    amount: toMajor(row.amountMinor),
    currency: row.currency,
    credits: row.credits,
    interval: null,
    intervalCount: null,
    email: "",
    successUrl: row.successUrl.replaceAll("{CHECKOUT_SESSION_ID}", row.sessionId),
    cancelUrl: row.cancelUrl.replaceAll("{CHECKOUT_SESSION_ID}", row.sessionId),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * Checkout: a hosted page (Stripe Checkout, or the sandbox page of this app) for a package or a
 * plan. Nothing is granted here: credits and subscriptions land only when the payment's event
 * is fulfilled (fulfilment.ts), never on the redirect back.
 */
export function createCheckoutService(options: CheckoutServiceOptions) {
  const { db, catalogue, payments, sandbox, fulfilment, subscriptions, publicUrl } = options;

  const record = async (values: typeof checkoutSessions.$inferInsert) => {
    await db.insert(checkoutSessions).values(values);
  };

  const ownRow = async (user: UserRow, sessionId: string): Promise<CheckoutSessionRow> => {
    const [row] = await db
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.sessionId, sessionId), eq(checkoutSessions.userId, user.id)));
    if (!row) throw new HttpError(404, BILLING_MESSAGES.sessionNotFound);
    return row;
  };

  /**
   * A sandbox session paid at the "provider" but not fulfilled (the fulfilment failed after the
   * card was charged): delivered again, as Stripe retries a failed webhook.
   */
  const reconcileSandbox = async (row: CheckoutSessionRow): Promise<CheckoutSessionRow> => {
    if (row.provider !== "sandbox" || row.fulfilledAt) return row;
    const session = await sandbox.retrieveCheckoutSession(row.sessionId);
    if (session?.status !== "complete" || session.paymentStatus !== "paid") return row;
    await fulfilment.handle(
      {
        id: sandboxId("evt"),
        type: "checkout.session.completed",
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: row.sessionId, object: "checkout.session" } },
      },
      sandbox,
    );
    const [fresh] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, row.id));
    return fresh ?? row;
  };

  const viewOf = async (row: CheckoutSessionRow): Promise<CheckoutSessionView> => {
    const view = toView(row, new Date());
    if (row.planId) {
      const plan = await catalogue.findPlanAnyState(row.planId);
      if (plan) Object.assign(view, { interval: plan.interval, intervalCount: plan.intervalCount });
    }
    return view;
  };

  return {
    /** POST /api/payments/create-checkout-session {packageId}. */
    async packageCheckout(user: UserRow, packageId: string) {
      const pack = await catalogue.packageForCheckout(packageId);
      const provider = await payments();
      const amountMinor = discountedMinor(pack.priceMinor, pack.discountBasisPoints);
      const successUrl = `${publicUrl}${CHECKOUT_RETURN_PATHS.packageSuccess}`;
      const cancelUrl = `${publicUrl}${CHECKOUT_RETURN_PATHS.packageCancel}`;
      const created = await providerCall(() =>
        provider.createCheckoutSession({
          mode: "payment",
          userId: user.id,
          email: user.email,
          item: {
            name: pack.name,
            description: pack.description || `${pack.credits} credits`,
            amountMinor,
            currency: pack.currency,
            priceId: provider.mode === "stripe" ? pack.stripePriceId : null,
            recurring: null,
          },
          successUrl,
          cancelUrl,
          metadata: { kind: "credits", userId: user.id, packageId: pack.id },
        }),
      );
      await record({
        sessionId: created.sessionId,
        provider: provider.mode,
        mode: "payment",
        userId: user.id,
        packageId: pack.id,
        priceId: pack.stripePriceId,
        itemName: pack.name,
        description: pack.description,
        amountMinor,
        currency: pack.currency,
        credits: pack.credits,
        url: created.url,
        successUrl,
        cancelUrl,
        expiresAt: created.expiresAt,
      });
      return { url: created.url, sessionId: created.sessionId };
    },

    /** POST /api/subscriptions/create-checkout {planId}: refused while a subscription is in force. */
    async planCheckout(user: UserRow, planId: string) {
      const current = await subscriptions.currentRow(user.id);
      if (current && (current.status === "active" || current.status === "past_due")) {
        throw new HttpError(409, BILLING_MESSAGES.alreadySubscribed);
      }
      const plan = await catalogue.planForCheckout(planId);
      const provider = await payments();
      const successUrl = `${publicUrl}${CHECKOUT_RETURN_PATHS.planSuccess}`;
      const cancelUrl = `${publicUrl}${CHECKOUT_RETURN_PATHS.planCancel}`;
      const created = await providerCall(() =>
        provider.createCheckoutSession({
          mode: "subscription",
          userId: user.id,
          email: user.email,
          item: {
            name: plan.name,
            description: plan.description,
            amountMinor: plan.priceMinor,
            currency: plan.currency,
            priceId: provider.mode === "stripe" ? plan.stripePriceId : null,
            recurring: { interval: plan.interval, intervalCount: plan.intervalCount },
          },
          successUrl,
          cancelUrl,
          metadata: { kind: "subscription", userId: user.id, planId: plan.id },
        }),
      );
      await record({
        sessionId: created.sessionId,
        provider: provider.mode,
        mode: "subscription",
        userId: user.id,
        planId: plan.id,
        priceId: plan.stripePriceId,
        itemName: plan.name,
        description: plan.description,
        amountMinor: plan.priceMinor,
        currency: plan.currency,
        credits: plan.credits > 0 ? plan.credits : null,
        url: created.url,
        successUrl,
        cancelUrl,
        expiresAt: created.expiresAt,
      });
      return { url: created.url, sessionId: created.sessionId };
    },

    /** The session as its owner sees it (the sandbox page and the return pages). */
    async sessionView(user: UserRow, sessionId: string): Promise<CheckoutSessionView> {
      const row = await reconcileSandbox(await ownRow(user, sessionId));
      return viewOf(row);
    },

    /** The sandbox page's card form: charged, then fulfilled through the webhook's code. */
    async sandboxPay(user: UserRow, sessionId: string, card: SandboxPayRequest) {
      const owned = await ownRow(user, sessionId);
      if (owned.provider !== "sandbox") throw new HttpError(404, BILLING_MESSAGES.sessionNotFound);
      const row = await reconcileSandbox(owned);
      if (row.fulfilledAt) {
        // Paid already (a second click, or a retry after a failed fulfilment): the same answer.
        const view = await viewOf(row);
        return { redirectUrl: view.successUrl, data: view };
      }
      if (row.status !== "open" || row.expiresAt < new Date()) {
        throw new HttpError(409, BILLING_MESSAGES.sessionClosed);
      }
      if (row.mode === "subscription") {
        const current = await subscriptions.currentRow(user.id);
        if (current && (current.status === "active" || current.status === "past_due")) {
          throw new HttpError(409, BILLING_MESSAGES.alreadySubscribed);
        }
      }
      try {
        await sandbox.pay(sessionId, {
          cardNumber: card.cardNumber,
          expiry: card.expiry,
          cvc: card.cvc,
        });
      } catch (error) {
        if (error instanceof CardError)
          throw new HttpError(402, error.message, { code: error.code });
        if (error instanceof SessionClosedError) {
          throw new HttpError(409, BILLING_MESSAGES.sessionClosed);
        }
        throw error;
      }
      const [fresh] = await db
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, row.id));
      const view = await viewOf(fresh ?? row);
      return { redirectUrl: view.successUrl, data: view };
    },

    /** The sandbox page's "cancel": back to the cancel URL, nothing charged. */
    async sandboxCancel(user: UserRow, sessionId: string) {
      const row = await ownRow(user, sessionId);
      if (row.provider !== "sandbox") throw new HttpError(404, BILLING_MESSAGES.sessionNotFound);
      if (row.status === "open") {
        await sandbox.cancel(sessionId);
        await db
          .update(checkoutSessions)
          .set({ status: "canceled" })
          .where(and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.status, "expired")));
      }
      const [fresh] = await db
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, row.id));
      const view = await viewOf(fresh ?? row);
      return { redirectUrl: view.cancelUrl, data: view };
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
