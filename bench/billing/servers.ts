// Runs in its own process so the load generator does not share the server's event loop.
// The app with Stripe on (the real SDK against the local fake Stripe of @twinline/fakes), and a
// bare Fastify server whose POST /bare only verifies the same Stripe signature on the raw body.
// Setup: BENCH_ROWS (1,000,000) payments seeded for the admin list (then vacuumed); then
// BENCH_SESSIONS (200) paid checkout sessions of BENCH_USERS (20) users, each one signed
// checkout.session.completed event (signed last: Stripe's tolerance is 5 minutes). Prints one JSON line { bare, app, adminToken, deliveries: [{ payload, header }],
// creditsPerSession }, then serves; GET /bench/ledger (app) answers the ledger's purchase sums.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONSENT_VERSIONS } from "@twinline/contracts";
import { FAKE_STRIPE_SECRET_KEY, startFakeStripe } from "@twinline/fakes";
import { eq, sql } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";
import { creditLedger } from "../../apps/server/src/db/schema/index.ts";
import { verifyStripeWebhook } from "../../apps/server/src/providers/payments/stripe.ts";
import { signEvent, WEBHOOK_SECRET } from "../../apps/server/test/stripe-signature.ts";
import { announceAndServe } from "../lib/spawn-servers.ts";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 200);
const USERS = Number(process.env.BENCH_USERS ?? 20);
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const CREDITS = 100;

const bare = Fastify({ logger: false });
bare.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
  done(null, body),
);
bare.post("/bare", async (request, reply) => {
  try {
    await verifyStripeWebhook(
      request.body as Buffer,
      String(request.headers["stripe-signature"]),
      WEBHOOK_SECRET,
    );
  } catch {
    return reply.code(400).send({ success: false });
  }
  return { received: true };
});
bare.get("/bare-list", async () => ({
  success: true,
  data: Array.from({ length: 10 }, (_, i) => ({ _id: String(i), amount: i })),
}));
const bareUrl = await bare.listen({ port: 0, host: "127.0.0.1" });

const fake = await startFakeStripe();
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), "twinline-bench-"));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: "silent",
  STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
  STRIPE_API_BASE: fake.origin,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
});
const app: FastifyInstance = await buildApp({
  config,
  logger: false,
  register: async (probe) => {
    probe.get("/bench/ledger", async () => {
      const [row] = await app.database.db
        .select({
          entries: sql<number>`count(*)::int`,
          credits: sql<number>`coalesce(sum(${creditLedger.amount}), 0)::int`,
        })
        .from(creditLedger)
        .where(eq(creditLedger.kind, "purchase"));
      return row;
    });
  },
});

// The admin list's table: ROWS payments over two years, 1,000 users, three statuses.
if (ROWS > 0) {
  await app.database.db.execute(
    sql.raw(`
    insert into users (name, email)
    select 'Seed User ' || g, 'seed-user-' || g || '@example.com' from generate_series(1, 1000) g`),
  );
  await app.database.db.execute(
    sql.raw(`
    insert into payments (kind, user_id, status, amount_minor, currency, credits, item_name,
      provider, stripe_payment_id, source_key, transaction_date)
    select case when g % 4 = 0 then 'subscription' else 'credits' end::payment_kind,
      u.id,
      (array['success','success','success','pending','failed'])[1 + g % 5]::payment_status,
      100 + (g * 7919) % 10000, 'usd', 10 * (1 + g % 50), 'Pack ' || (g % 20), 'sandbox',
      'pi_seed_' || g, 'seed:' || g,
      now() - ((g * 104729) % (730 * 86400)) * interval '1 second'
    from generate_series(1::bigint, ${ROWS}) g
    join (select id, row_number() over () as n from users where email like 'seed-user-%') u
      on u.n = 1 + g % 1000`),
  );
  // Vacuumed as autovacuum would have: the visibility map lets counts use index-only scans.
  await app.database.db.execute(sql.raw("vacuum analyze payments"));
}

// The catalogue, the users, and the paid sessions with their events.
await app.auth.syncAdmin({ email: "admin@example.com", password: "bench-password-1" });
const admin = await app.users.findByEmail("admin@example.com");
if (!admin) throw new Error("no admin");
const adminToken = await app.tokens.sign(admin);
const pack = await app.billing.catalogue.createPackage({
  name: "Bench Pack",
  description: "",
  credits: CREDITS,
  price: 9.99,
  currency: "usd",
  discount: 0,
  isActive: true,
});
const users = [];
for (let i = 0; i < USERS; i++) {
  const row = await app.users.insert({
    name: `Bench User ${i}`,
    email: `bench-user-${i}@example.com`,
  });
  if (!row) throw new Error("user insert failed");
  users.push(row);
}
const deliveries: Array<{ payload: string; header: string }> = [];
for (let i = 0; i < SESSIONS; i++) {
  const user = users[i % users.length];
  if (!user) throw new Error("no user");
  const { sessionId } = await app.billing.checkout.packageCheckout(
    user,
    pack._id,
    config.publicUrl,
    // The fan ticked the delivery consent (docs/decisions/0064).
    { version: CONSENT_VERSIONS.credits, ipAddress: "127.0.0.1" },
  );
  const { session } = await fake.completeCheckout(sessionId);
  // Signed now: the run takes well under Stripe's 5 minutes' tolerance.
  deliveries.push(signEvent(fake.event("checkout.session.completed", session)));
}

const appUrl = await app.listen({ port: 0, host: "127.0.0.1" });
announceAndServe(
  {
    bare: bareUrl,
    app: appUrl,
    adminToken,
    deliveries,
    creditsPerSession: CREDITS,
    kind: app.database.kind,
  },
  () => Promise.all([bare.close(), app.close(), fake.close()]),
);
