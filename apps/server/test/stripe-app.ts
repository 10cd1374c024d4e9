import { FAKE_STRIPE_SECRET_KEY, type FakeStripe, startFakeStripe } from "@twinline/fakes";
import { createTestApp, type TestApp, type TestAppOptions } from "./create-test-app.ts";
import { WEBHOOK_SECRET } from "./stripe-signature.ts";

/** The app's environment for Stripe at the local fake: its key, its address, the webhook secret. */
export const stripeEnv = (fake: FakeStripe): NodeJS.ProcessEnv => ({
  STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
  STRIPE_API_BASE: fake.origin,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  PUBLIC_URL: "https://twinline.example",
});

export interface StripeTestApp {
  t: TestApp;
  fake: FakeStripe;
  close(): Promise<void>;
}

/** A test app that bills with the real Stripe SDK against a local fake Stripe. */
export async function createStripeTestApp(options: TestAppOptions = {}): Promise<StripeTestApp> {
  const fake = await startFakeStripe();
  try {
    const t = await createTestApp({ ...options, env: { ...options.env, ...stripeEnv(fake) } });
    return {
      t,
      fake,
      async close() {
        await t.close();
        await fake.close();
      },
    };
  } catch (error) {
    await fake.close();
    throw error;
  }
}
