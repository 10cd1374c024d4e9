// A server process that dies mid-payment (checkout-sweep.test.ts): the sandbox provider takes
// the payment, then the process is killed with SIGKILL inside the fulfilment's transaction,
// after the credits were written and before it commits. Nothing of the fulfilment survives;
// the provider's record of the payment does.
import { join } from "node:path";
import { SANDBOX_CARDS } from "@twinline/contracts";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";

const { DATA_DIR, DATABASE_URL, SESSION_ID } = process.env;
if (!DATA_DIR || !SESSION_ID) throw new Error("DATA_DIR and SESSION_ID are required");
const config = loadConfig({
  DATA_DIR,
  LOG_LEVEL: "silent",
  ...(DATABASE_URL ? { DATABASE_URL } : {}),
});
const app = await buildApp({ config, logger: false, webDistDir: join(DATA_DIR, "no-web-build") });
await app.ready();
app.billing.fulfilment.state.probe = (step) => {
  if (step === "credits-granted") process.kill(process.pid, "SIGKILL");
};
await app.billing.sandbox.pay(SESSION_ID, {
  cardNumber: SANDBOX_CARDS.success,
  expiry: "12/40",
  cvc: "123",
});
// Not reached: the probe kills the process first.
process.exit(3);
