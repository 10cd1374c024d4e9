import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../../config.ts";
import { appOriginFor } from "../../lib/app-origin.ts";
import { type Clock, systemClock } from "../../lib/clock.ts";
import {
  createSandboxPayments,
  type PaymentEvent,
  type SandboxOptions,
  type SandboxPayments,
} from "../../providers/payments/index.ts";
import type { FanMail } from "../fan-mail/plugin.ts";
import type { Push } from "../push/plugin.ts";
import { createCatalogueRepository } from "./catalogue/catalogue-repository.ts";
import { adminCatalogueRoutes, publicCatalogueRoutes } from "./catalogue/catalogue-routes.ts";
import { type CatalogueService, createCatalogueService } from "./catalogue/catalogue-service.ts";
import { checkoutRoutes } from "./checkout/checkout-routes.ts";
import { type CheckoutService, createCheckoutService } from "./checkout/checkout-service.ts";
import {
  CHECKOUT_SWEEP_CRON,
  type CheckoutSweep,
  createCheckoutSweep,
} from "./checkout/checkout-sweep.ts";
import { createSandboxStore } from "./checkout/sandbox-store.ts";
import { createFulfilment, type Fulfilment } from "./fulfilment/fulfilment.ts";
import { webhookRoutes } from "./fulfilment/webhook-routes.ts";
import { adminPromotionRoutes, promotionCheckRoutes } from "./promotions/promotions-routes.ts";
import {
  createPromotionsService,
  type PromotionsService,
} from "./promotions/promotions-service.ts";
import { adminMoneyRoutes } from "./refunds/admin-money-routes.ts";
import {
  createRefundsService,
  REFUNDS_SWEEP_CRON,
  type RefundsService,
} from "./refunds/refunds-service.ts";
import {
  createPlanChangeSweep,
  PLAN_CHANGE_SWEEP_CRON,
  type PlanChangeSweep,
} from "./subscriptions/plan-change-sweep.ts";
import { createRenewals, RENEWAL_SWEEP_CRON, type Renewals } from "./subscriptions/renewals.ts";
import { subscriptionRoutes } from "./subscriptions/subscription-routes.ts";
import { createSubscriptionsReader } from "./subscriptions/subscriptions-reader.ts";
import {
  createSubscriptionsService,
  type SubscriptionsService,
} from "./subscriptions/subscriptions-service.ts";
import { adminBillingRoutes } from "./transactions/admin-routes.ts";
import { adminExportRoutes } from "./transactions/export-routes.ts";
import {
  createTransactionsRepository,
  type TransactionsRepository,
} from "./transactions/transactions-repository.ts";
import { userTransactionsRoutes } from "./transactions/user-routes.ts";
import { withdrawalRoutes } from "./withdrawals/withdrawal-routes.ts";
import {
  createWithdrawalsService,
  type WithdrawalsService,
} from "./withdrawals/withdrawals-service.ts";

export interface Billing {
  catalogue: CatalogueService;
  checkout: CheckoutService;
  subscriptions: SubscriptionsService;
  transactions: TransactionsRepository;
  /** THE fulfilment (webhooks and sandbox); tests set `fulfilment.state.probe` to fail half-way. */
  fulfilment: Fulfilment;
  sandbox: SandboxPayments;
  /** The sandbox's renewal sweep; tests move the clock and call `renewals.sweep()`. */
  renewals: Renewals;
  /** Re-reads checkout sessions left open (checkout-sweep.ts); runs every minute on the clock. */
  sweep: CheckoutSweep;
  /** Settles plan changes left open by a crash (plan-change-sweep.ts); every minute. */
  planChanges: PlanChangeSweep;
  /** Refunds and disputes, and the sweep of claims left pending (decision 0050). */
  refunds: RefundsService;
  /** The fan's withdrawal from a purchase within 14 days (decision 0065). */
  withdrawals: WithdrawalsService;
  /** Promotion codes (decision 0083). */
  promotions: PromotionsService;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Packages, plans, checkout, webhooks, subscriptions, transactions (issue 9). */
    billing: Billing;
  }
}

/** The other modules' services billing uses, passed by app.ts (docs/decisions/0097). */
export interface BillingModuleDeps {
  /** Kicked after a commit that queued a receipt or notice, so it goes at once. */
  fanMail: Pick<FanMail, "kick">;
  push: Pick<Push, "kick">;
}

export interface BillingModuleOptions extends BillingModuleDeps {
  config: Config;
  /**
   * THE billing clock: the sandbox's time, its renewals', the checkout, plan-change and refunds
   * sweeps' timers (tests move a manual one); default the system's.
   */
  clock?: Clock;
  /**
   * Run the checkout, plan-change, renewal and refunds sweeps as scheduled jobs at their cron
   * occurrences on the clock (default true). False: a test that moves its clock over days runs them itself (`renewals.sweep()`,
   * `sweep.sweep()`, `planChanges.sweep()`, `refunds.sweep()`), so nothing happens behind its
   * back and a month is not 40,000 passes.
   */
  sweeps?: boolean;
}

/**
 * Billing (docs/decisions/0016, 0017): the catalogue, checkout (Stripe or the sandbox),
 * webhooks, subscriptions and transactions. Every route is registered from the route table
 * (routes.billing, routes.adminBilling; decision 0086): admin routes guarded by requireAdmin, the
 * fan's by requireUser, from their `access`; the webhook is open and checked by its signature.
 * Needs providers and accounts registered before it.
 */
export const billingModule = fp<BillingModuleOptions>(
  async (app: FastifyInstance, options) => {
    const db = app.database.db;
    const payments = () => app.providers.payments();
    const clock = options.clock ?? systemClock;
    const { metrics } = app.observability;
    // Payment events: how long after the provider made them they were applied (seconds); the
    // sandbox dates its events by the billing clock, Stripe by the world's.
    const observeLag = (source: "stripe" | "sandbox", event: PaymentEvent) =>
      metrics.webhookLag(
        source,
        // Never below zero: a provider's clock ahead of ours (or a test clock) is no lag.
        Math.max(0, (source === "sandbox" ? clock.now() : Date.now()) / 1000 - event.created),
      );
    // The refunds service needs the sandbox, which needs the fulfilment: bound once made.
    let refunds: RefundsService | undefined;
    const fulfilment = createFulfilment({
      db,
      payments,
      log: app.log,
      clock,
      onDuplicateSubscription: async (userId) => {
        await refunds?.settleDuplicates(userId);
      },
      // Receipts and notices the event queued go out at once (docs/decisions/0066).
      afterCommit: () => {
        options.fanMail.kick();
        options.push.kick();
      },
    });

    // The sandbox's events go to the same fulfilment as Stripe's webhooks, read back from it.
    let sandbox: SandboxPayments | undefined;
    const sandboxOptions: SandboxOptions = {
      store: createSandboxStore(db),
      now: () => new Date(clock.now()),
      deliver: async (event: PaymentEvent) => {
        const handled = await fulfilment.handle(event, sandbox);
        if (!handled.duplicate) observeLag("sandbox", event);
      },
    };
    sandbox = createSandboxPayments(sandboxOptions);
    app.providers.configureSandbox(sandboxOptions);

    refunds = createRefundsService({ db, payments, sandbox, clock, log: app.log });
    const refundsService = refunds;

    const catalogue = createCatalogueService({
      repository: createCatalogueRepository(db),
      payments,
      clock,
    });
    const reader = createSubscriptionsReader(db);
    const transactions = createTransactionsRepository(db);
    const promotions = createPromotionsService({ db, payments, clock });
    const checkout = createCheckoutService({
      promotions,
      db,
      catalogue,
      payments,
      sandbox,
      fulfilment,
      subscriptions: reader,
      clock,
    });
    const subscriptions = createSubscriptionsService({
      db,
      catalogue,
      payments,
      sandbox,
      fulfilment,
      reader,
      clock,
    });
    const withdrawals = createWithdrawalsService({
      db,
      refunds: refundsService,
      subscriptions,
      reader,
      clock,
      kickMail: () => options.fanMail.kick(),
    });
    const renewals = createRenewals({ db, sandbox, clock, log: app.log });
    const sweep = createCheckoutSweep({ db, payments, sandbox, fulfilment, clock, log: app.log });
    const planChanges = createPlanChangeSweep({
      db,
      payments,
      sandbox,
      fulfilment,
      clock,
      log: app.log,
    });
    if (options.sweeps !== false) {
      // Durable jobs on the queue (docs/decisions/0072): each occurrence runs once across every
      // instance, a failed pass is retried and then dead-lettered. The passes themselves are
      // safe to repeat (compare-and-set claims, unique source keys), so a retry never pays twice.
      const sweepJob = { clock, retryLimit: 2, retryDelaySeconds: 30, expireInSeconds: 10 * 60 };
      app.jobs.define("billing.checkout-sweep", () => sweep.sweep(), {
        ...sweepJob,
        cron: CHECKOUT_SWEEP_CRON,
      });
      app.jobs.define("billing.plan-change-sweep", () => planChanges.sweep(), {
        ...sweepJob,
        cron: PLAN_CHANGE_SWEEP_CRON,
      });
      app.jobs.define("billing.renewals", () => renewals.sweep(), {
        ...sweepJob,
        cron: RENEWAL_SWEEP_CRON,
      });
      // Refund claims left pending by a crash or an unreachable provider are settled again.
      app.jobs.define("billing.refunds-sweep", () => refundsService.sweep(), {
        ...sweepJob,
        cron: REFUNDS_SWEEP_CRON,
      });
    }
    app.decorate<Billing>("billing", {
      catalogue,
      checkout,
      subscriptions,
      transactions,
      fulfilment,
      sandbox,
      renewals,
      sweep,
      planChanges,
      refunds: refundsService,
      withdrawals,
      promotions,
    });

    await app.register(publicCatalogueRoutes, { catalogue, subscriptions });
    await app.register(checkoutRoutes, {
      checkout,
      appOrigin: (request) => appOriginFor(options.config, request),
    });
    await app.register(promotionCheckRoutes, { promotions, catalogue });
    await app.register(subscriptionRoutes, { subscriptions, reader });
    await app.register(userTransactionsRoutes, { transactions });
    await app.register(withdrawalRoutes, { withdrawals });
    await app.register(webhookRoutes, {
      fulfilment,
      webhookSecret: options.config.stripe.webhookSecret,
      onApplied: (event) => observeLag("stripe", event),
    });
    // The admin's routes are guarded by their definitions (routes.adminBilling, routes.promotions;
    // decision 0086), registered in the order the OpenAPI document has them.
    await app.register(adminCatalogueRoutes, { catalogue, subscriptions });
    await app.register(adminBillingRoutes, { transactions, clock });
    await app.register(adminPromotionRoutes, { promotions });
    await app.register(adminExportRoutes, { transactions });
    await app.register(adminMoneyRoutes, {
      db,
      refunds: refundsService,
      subscriptions,
      reader,
      clock,
    });
  },
  { name: "billing", dependencies: ["providers", "accounts", "jobs"] },
);
