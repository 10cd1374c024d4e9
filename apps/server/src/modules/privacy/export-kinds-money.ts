// The fan's credits, payments, subscriptions and use, as files of the export.
import { asc, eq, getTableColumns, inArray } from "drizzle-orm";
import {
  chatDailyUsage,
  creditLedger,
  paymentRefunds,
  payments,
  subscriptionEvents,
  subscriptionPlans,
  userSubscriptions,
  voiceDailyUsage,
} from "../../db/schema/index.ts";
import { toMajor } from "../../lib/money.ts";
import { type ExportKind, groupBy, iso, keysetRead, writeArray } from "./export-format.ts";

export const creditLedgerKind: ExportKind = {
  file: "credit-ledger.json",
  title: "Every movement of your credits, oldest first",
  fields: {
    id: "The movement's id",
    kind: "grant, purchase, subscription_grant, call_minute, admin_adjustment or refund",
    amount: "Credits added (positive) or taken (negative)",
    balanceAfter: "Your balance once it applied",
    reference: "What caused it (a payment, a call minute...)",
    details: "More about it (the package, the plan, an adjustment's reason...)",
    createdAt: "When it happened",
  },
  async write(out, { db, userId }) {
    const pages = keysetRead(db, {
      table: creditLedger,
      fields: {
        id: creditLedger.id,
        kind: creditLedger.kind,
        amount: creditLedger.amount,
        balanceAfter: creditLedger.balanceAfter,
        reference: creditLedger.sourceKey,
        details: creditLedger.metadata,
        createdAt: creditLedger.createdAt,
      },
      user: creditLedger.userId,
      userId,
      time: creditLedger.createdAt,
      tie: creditLedger.id,
    });
    await writeArray(out, pages, (rows) =>
      rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        amount: row.amount,
        balanceAfter: row.balanceAfter,
        reference: row.reference,
        details: row.details,
        createdAt: iso(row.createdAt),
      })),
    );
  },
};

export const paymentsKind: ExportKind = {
  file: "payments.json",
  title: "Your payments (credit packages and subscriptions), with their refunds",
  fields: {
    id: "The payment's id",
    kind: "credits (a package) or subscription",
    status: "success, pending, failed, refunded or credited",
    amount: "The amount, in the currency's major unit",
    currency: "The currency",
    credits: "Credits it bought",
    item: "The package's or plan's name",
    provider: "stripe or sandbox",
    providerPaymentId: "The payment's id at the provider",
    invoiceId: "The provider's invoice id, if any",
    invoiceNumber: "The invoice number, if any",
    refundedAmount: "What was given back so far",
    transactionDate: "When it was paid",
    refunds: "Each refund or dispute: amount, status, kind, reason, createdAt",
  },
  async write(out, { db, userId }) {
    const pages = keysetRead(db, {
      table: payments,
      fields: getTableColumns(payments),
      user: payments.userId,
      userId,
      time: payments.transactionDate,
      tie: payments.seq,
    });
    await writeArray(out, pages, async (rows) => {
      const refunds = await db
        .select()
        .from(paymentRefunds)
        .where(
          inArray(
            paymentRefunds.paymentId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(asc(paymentRefunds.createdAt));
      const refundsOf = groupBy(refunds, (refund) => refund.paymentId);
      return rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        status: row.status,
        amount: toMajor(row.amountMinor),
        currency: row.currency,
        credits: row.credits,
        item: row.itemName,
        provider: row.provider,
        providerPaymentId: row.stripePaymentId,
        invoiceId: row.invoiceId,
        invoiceNumber: row.invoiceNumber,
        refundedAmount: toMajor(row.refundedMinor),
        transactionDate: iso(row.transactionDate),
        refunds: (refundsOf.get(row.id) ?? []).map((refund) => ({
          amount: toMajor(refund.amountMinor),
          status: refund.status,
          kind: refund.kind,
          reason: refund.reason,
          createdAt: iso(refund.createdAt),
        })),
      }));
    });
  },
};

export const subscriptions: ExportKind = {
  file: "subscriptions.json",
  title: "Your subscriptions and their history",
  fields: {
    subscriptions:
      "Each subscription: id, plan, status, price, currency, currentPeriodStart, currentPeriodEnd, cancelAtPeriodEnd, canceledAt, createdAt",
    history:
      "Each event: subscriptionId, plan, eventType, status, startDate, endDate, amount, currency, autoRenew, timestamp",
  },
  async write(out, { db, userId }) {
    // A fan has a few subscriptions and a few events per period: one read each.
    const rows = await db
      .select({ subscription: userSubscriptions, plan: subscriptionPlans.name })
      .from(userSubscriptions)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, userSubscriptions.planId))
      .where(eq(userSubscriptions.userId, userId))
      .orderBy(asc(userSubscriptions.createdAt));
    await out.write('{\n  "subscriptions": ');
    await writeArray(out, [rows], (page) =>
      page.map(({ subscription: s, plan }) => ({
        id: s.id,
        plan,
        status: s.status,
        price: toMajor(s.priceMinor),
        currency: s.currency,
        currentPeriodStart: iso(s.currentPeriodStart),
        currentPeriodEnd: iso(s.currentPeriodEnd),
        cancelAtPeriodEnd: s.cancelAtPeriodEnd,
        canceledAt: iso(s.canceledAt),
        createdAt: iso(s.createdAt),
      })),
    );
    await out.write('  ,"history": ');
    const pages = keysetRead(db, {
      table: subscriptionEvents,
      fields: getTableColumns(subscriptionEvents),
      user: subscriptionEvents.userId,
      userId,
      time: subscriptionEvents.timestamp,
      tie: subscriptionEvents.id,
    });
    await writeArray(out, pages, (events) =>
      events.map((event) => ({
        subscriptionId: event.subscriptionId,
        plan: event.planName,
        eventType: event.eventType,
        status: event.status,
        startDate: iso(event.startDate),
        endDate: iso(event.endDate),
        amount: toMajor(event.amountMinor),
        currency: event.currency,
        autoRenew: event.autoRenew,
        timestamp: iso(event.timestamp),
      })),
    );
    await out.write("}\n");
  },
};

export const usage: ExportKind = {
  file: "usage.json",
  title: "Your use per day (UTC): messages answered, voice characters and replies outside calls",
  fields: {
    chat: "Each day: day, messages (answered messages counted against the daily free ones)",
    voice: "Each day: day, synthesizedCharacters, llmCalls",
  },
  async write(out, { db, userId }) {
    // One row per day of use: a few thousand at most.
    const chat = await db
      .select({ day: chatDailyUsage.day, messages: chatDailyUsage.count })
      .from(chatDailyUsage)
      .where(eq(chatDailyUsage.userId, userId))
      .orderBy(asc(chatDailyUsage.day));
    const voice = await db
      .select({
        day: voiceDailyUsage.day,
        synthesizedCharacters: voiceDailyUsage.synthesizedCharacters,
        llmCalls: voiceDailyUsage.llmCalls,
      })
      .from(voiceDailyUsage)
      .where(eq(voiceDailyUsage.userId, userId))
      .orderBy(asc(voiceDailyUsage.day));
    await out.write(`${JSON.stringify({ chat, voice }, null, 2)}\n`);
  },
};
